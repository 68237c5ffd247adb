import type { Command } from 'commander';
import { presentReversal } from '../presenters/records.js';
import { positiveInt } from './arguments.js';
import { withServices } from './context.js';
import { formatOption, printOne, type Format } from './output.js';

/** `gatehouse transaction reverse`: corrections of the ledger, as the operator API makes them. */
export function addMoneyCommands(program: Command): void {
  const transaction = program.command('transaction').description('one entry of the ledger');
  transaction
    .command('reverse')
    .description(
      "reverse a visit's transaction: a new, negative entry linked to it (the visit is never edited)",
    )
    .argument('<transaction-id>', 'the visit’s transaction', positiveInt)
    .requiredOption('--reason <text>', 'why (1 to 500 characters): the partner sees it')
    .option('--amount-cents <cents>', 'how much to take back (default: all that is left)', positiveInt)
    .addOption(formatOption())
    .action((transactionId: number, options: { reason: string; amountCents?: number; format: Format }) =>
      withServices(async (services) => {
        const reversal = await services.ledger.reverse({
          transactionId,
          reason: options.reason,
          ...(options.amountCents === undefined ? {} : { amountCents: options.amountCents }),
        });
        printOne(presentReversal(reversal), options.format);
      }),
    );
}
