import { presentPayoutRules } from '../presenters/plans.js';
import type { Services } from '../services/index.js';
import type { RulesOf } from '../services/payout-rule-service.js';
import { instant, positiveInt } from './arguments.js';
import { COLUMNS } from './columns.js';
import { withServices } from './context.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { formatOption, print, printOne, type Format, type Row } from './output.js';
import { monthlyPaidVisits, payoutTier, tierText } from './plan-arguments.js';

type PayoutRow = ReturnType<typeof presentPayoutRules>;

const iso = (epochMs: number | undefined) =>
  epochMs === undefined ? undefined : new Date(epochMs).toISOString();

/** JSON is the operator API's shape; a table or a CSV writes tiers in the form --tier takes. */
const payoutAsText = (row: PayoutRow): Row => ({ ...row, tiers: row.tiers.map(tierText).join(' ') });

interface Owner {
  partner?: number;
  gym?: number;
}

/** The rules' owner: exactly one of --partner and --gym. */
function ownerOf(options: Owner): RulesOf {
  if (options.partner !== undefined && options.gym === undefined) return { partnerId: options.partner };
  if (options.gym !== undefined && options.partner === undefined) return { gymId: options.gym };
  throw new Error('give exactly one of --partner <id> and --gym <id>');
}

interface SetOptions extends Owner {
  monthlyPaidVisits?: number | 'none';
  tier?: { afterCents: number; ratePct: number }[];
  noTiers?: boolean;
  effectiveFrom?: number;
  format: Format;
}

/** A new version: what the options state, and for what they leave out, the latest version's (none at first). */
async function setPayoutRules(services: Services, options: SetOptions): Promise<PayoutRow> {
  const of = ownerOf(options);
  if (options.tier !== undefined && options.noTiers === true) {
    throw new Error('give --tier or --no-tiers, not both');
  }
  const tiersGiven = options.tier ?? (options.noTiers === true ? [] : undefined);
  if (options.monthlyPaidVisits === undefined && tiersGiven === undefined) {
    throw new Error('give --monthly-paid-visits, --tier or --no-tiers: what the new version changes');
  }
  const cap = options.monthlyPaidVisits;
  // What the options leave out is the latest version's, read in the service's own transaction.
  const rules = await services.payoutRules.set(of, {
    monthlyPaidVisitsPerMember: cap === 'none' ? null : cap,
    tiers: tiersGiven,
    effectiveFrom: iso(options.effectiveFrom),
  });
  return presentPayoutRules(rules);
}

/** `gatehouse payout-rule set|show`: what a partner's gyms (or one gym) are paid. */
export function addPayoutRuleCommands(program: GatehouseCommand): void {
  const payoutRule = program
    .command('payout-rule')
    .description(
      "payout rules: a partner's (or one gym's) monthly cap per member and volume tiers, as versions",
    );
  payoutRule
    .command('set')
    .description('a new version of the rules, from an instant on (default now, never earlier)')
    .option('--partner <id>', "the partner's rules", positiveInt)
    .option('--gym <id>', "one gym's, overriding its partner's", positiveInt)
    .option(
      '--monthly-paid-visits <n>',
      'visits of one member paid per month, or none (no cap)',
      monthlyPaidVisits,
    )
    .option(
      '--tier <tier>',
      'after_cents:rate_pct, as 1000000:90 (repeat it): the whole new list',
      payoutTier,
    )
    .option('--no-tiers', 'no volume tiers from then on')
    .option('--effective-from <time>', 'when the version takes effect (ISO-8601; default now)', instant)
    .addOption(formatOption('without-ids'))
    .action((options: SetOptions & { tiers?: boolean }) =>
      withServices(async (services) => {
        const row = await setPayoutRules(services, { ...options, noTiers: options.tiers === false });
        printOne(options.format === 'json' ? row : payoutAsText(row), options.format);
      }),
    );
  payoutRule
    .command('show')
    .description('every version of the rules, oldest first')
    .option('--partner <id>', "the partner's rules", positiveInt)
    .option('--gym <id>', "one gym's override", positiveInt)
    .addOption(formatOption('without-ids'))
    .action((options: Owner & { format: Format }) =>
      withServices(async (services) => {
        const versions = (await services.payoutRules.versions(ownerOf(options))).map(presentPayoutRules);
        print(
          options.format === 'json' ? versions : versions.map(payoutAsText),
          options.format,
          COLUMNS.payoutRules,
        );
      }),
    );
}
