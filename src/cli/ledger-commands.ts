import type { Command } from 'commander';
import { presentPayout, presentTransaction } from '../operator-api/presenters.js';
import { instant, positiveInt } from './arguments.js';
import { withServices } from './context.js';
import { formatOption, print, streamCsv, type Format } from './output.js';

interface PeriodOptions {
  partner?: number;
  gym?: number;
  from?: number;
  to?: number;
  format: Format;
}

function periodFilter(options: PeriodOptions) {
  return {
    ...(options.partner === undefined ? {} : { partnerId: options.partner }),
    ...(options.gym === undefined ? {} : { gymId: options.gym }),
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.to === undefined ? {} : { to: options.to }),
  };
}

const TRANSACTION_COLUMNS = [
  'id',
  'checkin_id',
  'partner_id',
  'gym_id',
  'product_id',
  'platform_id',
  'payout_cents',
  'currency',
  'validated_at',
];

const PAYOUT_COLUMNS = ['partner_id', 'gym_id', 'currency', 'count', 'payout_cents'];

/** `gatehouse transactions` and `gatehouse payouts`: the ledger, for paying gyms. */
export function addLedgerCommands(program: Command): void {
  program
    .command('transactions')
    .description('the transactions of validated check-ins (every matching row)')
    .option('--partner <id>', "only this partner's", positiveInt)
    .option('--gym <id>', "only this gym's", positiveInt)
    .option('--from <time>', 'validated at or after (ISO-8601, UTC when no offset)', instant)
    .option('--to <time>', 'validated before (ISO-8601, UTC when no offset)', instant)
    .addOption(formatOption())
    .action((options: PeriodOptions) =>
      withServices(async (services) => {
        const rows = services.ledger.exportAll(periodFilter(options));
        if (options.format === 'csv') {
          await streamCsv(
            TRANSACTION_COLUMNS,
            (async function* () {
              for await (const row of rows) yield presentTransaction(row);
            })(),
          );
          return;
        }
        const all = [];
        for await (const row of rows) all.push(presentTransaction(row));
        print(all, options.format, TRANSACTION_COLUMNS);
      }),
    );

  program
    .command('payouts')
    .description('count and sum of payouts per partner, gym and currency for a period')
    .requiredOption('--from <time>', 'validated at or after (ISO-8601, UTC when no offset)', instant)
    .requiredOption('--to <time>', 'validated before (ISO-8601, UTC when no offset)', instant)
    .option('--partner <id>', "only this partner's", positiveInt)
    .option('--gym <id>', "only this gym's", positiveInt)
    .addOption(formatOption())
    .action((options: PeriodOptions & { from: number; to: number }) =>
      withServices(async (services) => {
        const lines = await services.ledger.payouts({
          ...periodFilter(options),
          from: options.from,
          to: options.to,
        });
        print(lines.map(presentPayout), options.format, PAYOUT_COLUMNS);
      }),
    );
}
