import type { Command } from 'commander';
import {
  PRICING_COLUMNS,
  presentListedPayout,
  presentTransaction,
  withFlatPricing,
} from '../presenters/records.js';
import { exportPeriod, type ExportPeriod as Period } from '../domain/export-period.js';
import { instant } from './arguments.js';
import { onlyOf } from './options.js';
import { COLUMNS } from './columns.js';
import { withServices } from './context.js';
import { formatOption, print, streamCsv, type Format } from './output.js';

interface PeriodOptions {
  partner?: number;
  gym?: number;
  from?: number;
  to?: number;
  format: Format;
  includeSandbox?: boolean;
  sandbox?: boolean;
}

function filterOf(options: PeriodOptions) {
  return {
    ...(options.partner === undefined ? {} : { partnerId: options.partner }),
    ...(options.gym === undefined ? {} : { gymId: options.gym }),
  };
}

/** On stderr, so a CSV or JSON on stdout stays what it is: why nothing was printed, and how to ask otherwise. */
function sayWhenEmpty(what: string, count: number, period: Period, timezone: string): void {
  if (count > 0) return;
  const at = (instant: number) => new Date(instant).toISOString().replace('.000Z', 'Z');
  process.stderr.write(
    `gatehouse: no ${what} from ${at(period.from)} to ${at(period.to)} (the end excluded; ` +
      `days in ${timezone}); choose another period with --from and --to\n`,
  );
}

const FROM_HELP = 'validated at or after (ISO-8601, UTC when no offset; default: the start of today)';
const TO_HELP = 'validated before (ISO-8601, UTC when no offset; default: the end of today)';

const PAYOUT_COLUMNS = ['partner_id', 'gym_id', 'currency', 'count', 'reversals', 'payout_cents'];

async function* flat(rows: AsyncIterable<ReturnType<typeof presentTransaction>>) {
  for await (const row of rows) yield withFlatPricing(row);
}

/** `gatehouse transactions` and `gatehouse payouts`: the ledger, for paying gyms. */
export function addLedgerCommands(program: Command): void {
  program
    .command('transactions')
    .description('the transactions of validated check-ins in a period (default: today), every matching row')
    .addOption(onlyOf('partner'))
    .addOption(onlyOf('gym'))
    .option('--from <time>', FROM_HELP, instant)
    .option('--to <time>', TO_HELP, instant)
    .option('--include-sandbox', "sandbox partners' transactions too, each row with a sandbox column")
    .addOption(formatOption())
    .action((options: PeriodOptions) =>
      withServices(async (services, config) => {
        const period = exportPeriod(options, services.clock.now(), config.timezone);
        // Sandbox visits are never money: left out unless asked for, and then marked.
        const both = options.includeSandbox === true;
        const rows = services.ledger.exportAll({
          ...filterOf(options),
          ...period,
          ...(both ? {} : { sandbox: false }),
        });
        let count = 0;
        const presented = (async function* () {
          for await (const row of rows) {
            count += 1;
            yield { ...presentTransaction(row), ...(both ? { sandbox: row.sandbox } : {}) };
          }
        })();
        // A table and a CSV show the pricing as columns of their own; JSON as the API answers it.
        const columns = [...COLUMNS.transaction, ...PRICING_COLUMNS, ...(both ? ['sandbox'] : [])];
        if (options.format === 'csv') await streamCsv(columns, flat(presented));
        else {
          const all = [];
          for await (const row of options.format === 'json' ? presented : flat(presented)) all.push(row);
          print(all, options.format, columns);
        }
        sayWhenEmpty('transactions validated', count, period, config.timezone);
      }),
    );

  program
    .command('payouts')
    .description('count and sum of payouts per partner, gym and currency for a period (default: today)')
    .option('--from <time>', FROM_HELP, instant)
    .option('--to <time>', TO_HELP, instant)
    .addOption(onlyOf('partner'))
    .addOption(onlyOf('gym'))
    .option('--sandbox', "what sandbox partners' visits would come to instead, each line marked (never owed)")
    .addOption(formatOption('without-ids'))
    .action((options: PeriodOptions) =>
      withServices(async (services, config) => {
        const period = exportPeriod(options, services.clock.now(), config.timezone);
        const filter = { ...filterOf(options), ...period };
        // Sandbox visits are never money: summed apart, and only when asked for, each line saying so.
        const sandbox = options.sandbox === true;
        const lines = await (sandbox
          ? services.ledger.sandboxPayouts(filter)
          : services.ledger.payouts(filter));
        const columns = sandbox ? [...PAYOUT_COLUMNS, 'sandbox'] : PAYOUT_COLUMNS;
        print(
          lines.map((line) => presentListedPayout(line, sandbox)),
          options.format,
          columns,
        );
        const what = sandbox ? 'validated sandbox visits' : 'validated visits to pay';
        sayWhenEmpty(what, lines.length, period, config.timezone);
      }),
    );
}
