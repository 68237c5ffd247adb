import {
  PRICING_COLUMNS,
  presentReversal,
  presentSettledEntry,
  presentSettlementRow,
  withFlatPricing,
} from '../presenters/records.js';
import { instant, oneOf, positiveInt } from './arguments.js';
import { COLUMNS } from './columns.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { onlyOf } from './options.js';

const status = oneOf(['closed', 'paid'] as const, 'must be closed or paid');

/**
 * `gatehouse transaction reverse` and `gatehouse settlement close|pay|list|entries`: corrections of the ledger and
 * closed periods, as the operator API makes them.
 */
export function addMoneyCommands(program: GatehouseCommand): void {
  const transaction = program.command('transaction').description('one entry of the ledger');
  transaction
    .command('reverse')
    .description(
      "reverse a visit's transaction: a new, negative entry linked to it (the visit is never edited)",
    )
    .argument('<transaction-id>', 'the visit’s transaction', positiveInt)
    .requiredOption('--reason <text>', 'why (1 to 500 characters): the partner sees it')
    .option('--amount-cents <cents>', 'how much to take back (default: all that is left)', positiveInt)
    .printsRecord(
      async (services, transactionId: number, options: { reason: string; amountCents?: number }) => {
        const reversal = await services.ledger.reverse({
          transactionId,
          reason: options.reason,
          ...(options.amountCents === undefined ? {} : { amountCents: options.amountCents }),
        });
        return presentReversal(reversal);
      },
    );
  addSettlementCommands(program);
}

function addSettlementCommands(program: GatehouseCommand): void {
  const settlement = program
    .command('settlement')
    .description('closed periods per partner and currency: what was paid, with the entries behind it');
  settlement
    .command('close')
    .description('close a period (the end excluded, not after now) for every partner, or one')
    .requiredOption('--from <time>', 'the period start (ISO-8601, UTC when no offset)', instant)
    .option('--to <time>', 'the period end, excluded (default: now)', instant)
    .option('--partner <id>', 'only this partner', positiveInt)
    .printsRecords(
      COLUMNS.settlement,
      async (services, options: { from: number; to?: number; partner?: number }) => {
        const closed = await services.settlements.close({
          period: { start: options.from, end: options.to ?? services.clock.now() },
          ...(options.partner === undefined ? {} : { partnerId: options.partner }),
        });
        return closed.map(presentSettlementRow);
      },
    );
  settlement
    .command('pay')
    .description('mark a settlement paid, with the payment reference')
    .argument('<settlement-id>', 'the settlement', positiveInt)
    .requiredOption('--reference <text>', "the payment's reference (1 to 200 characters)")
    .printsRecord(async (services, id: number, options: { reference: string }) =>
      presentSettlementRow(await services.settlements.pay(id, options.reference)),
    );
  settlement
    .command('list')
    .description('list settlements (the first 1000)')
    .addOption(onlyOf('partner'))
    .option('--status <status>', 'closed or paid', status)
    .printsRecords(
      COLUMNS.settlement,
      async (services, options: { partner?: number; status?: 'closed' | 'paid' }) => {
        const page = await services.settlements.list(
          {
            ...(options.partner === undefined ? {} : { partnerId: options.partner }),
            ...(options.status === undefined ? {} : { status: options.status }),
          },
          { afterId: 0, limit: 1000 },
        );
        return page.items.map(presentSettlementRow);
      },
    );
  settlement
    .command('entries')
    .description('every ledger entry a settlement holds (late: taken by the close after its own period)')
    .argument('<settlement-id>', 'the settlement', positiveInt)
    .printsRecords(
      [...COLUMNS.settledEntry, ...PRICING_COLUMNS],
      async (services, id: number) => (await services.settlements.entries(id)).map(presentSettledEntry),
      (row) => withFlatPricing(row as ReturnType<typeof presentSettledEntry>),
    );
}
