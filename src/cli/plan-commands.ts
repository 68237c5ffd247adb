import type { RuleInput } from '../domain/plans/plan.js';
import { presentMemberPlan, presentPlan, presentPlanVersion } from '../presenters/plans.js';
import { instant, positiveInt } from './arguments.js';
import { COLUMNS } from './columns.js';
import { withServices } from './context.js';
import { subcommand, type GatehouseCommand } from './gatehouse-command.js';
import { formatOption, print, printOne, type Format, type Row } from './output.js';
import { planRule, ruleText } from './plan-arguments.js';
import { memberId, recordId } from './options.js';

type PlanRow = ReturnType<typeof presentPlanVersion>;

const iso = (epochMs: number | undefined) =>
  epochMs === undefined ? undefined : new Date(epochMs).toISOString();

/** JSON is the operator API's shape; a table or a CSV writes rules in the form --rule takes. */
const planAsText = (row: PlanRow): Row => ({ ...row, rules: row.rules.map(ruleText).join(' ') });

function printPlan(row: PlanRow, format: Format): void {
  printOne(format === 'json' ? row : planAsText(row), format);
}

/** `gatehouse plan create|list|show|update` and `gatehouse member plan`: what members may use. */
export function addPlanCommands(program: GatehouseCommand): void {
  const plan = program
    .command('plan')
    .description('plans: what a member may use, as rules per product category (versions, never edited)');
  plan
    .command('create')
    .description('create a plan: its rules are its version 1')
    .requiredOption('--name <name>', 'its name, unique')
    .requiredOption(
      '--rule <rule>',
      'category:per:limit:scope, as standard:day:1:network (repeat it)',
      planRule,
    )
    .option('--effective-from <time>', 'when version 1 takes effect (ISO-8601; default now)', instant)
    .addOption(formatOption())
    .action((options: { name: string; rule: RuleInput[]; effectiveFrom?: number; format: Format }) =>
      withServices(async (services) => {
        const created = await services.plans.create(options.name, {
          rules: options.rule,
          effectiveFrom: iso(options.effectiveFrom),
        });
        printPlan(presentPlanVersion(created.name, created), options.format);
      }),
    );
  plan
    .command('update')
    .description("a new version of a plan's rules, from an instant on (default now, never earlier)")
    .addArgument(recordId('plan'))
    .requiredOption('--rule <rule>', 'category:per:limit:scope (repeat it): the whole new list', planRule)
    .option('--effective-from <time>', 'when the version takes effect (ISO-8601; default now)', instant)
    .addOption(formatOption())
    .action((planId: number, options: { rule: RuleInput[]; effectiveFrom?: number; format: Format }) =>
      withServices(async (services) => {
        const version = await services.plans.version(planId, {
          rules: options.rule,
          effectiveFrom: iso(options.effectiveFrom),
        });
        printPlan(presentPlanVersion(version.name, version), options.format);
      }),
    );
  plan
    .command('list')
    .description('list plans, each at its latest version')
    .addOption(formatOption())
    .action((options: { format: Format }) =>
      withServices(async (services) => {
        const plans = (await services.plans.list()).map(presentPlan);
        if (options.format === 'json') print(plans, 'json', COLUMNS.plan);
        else
          print(
            plans.map(({ versions: _, ...latest }) => planAsText(latest)),
            options.format,
            COLUMNS.plan,
          );
      }),
    );
  plan
    .command('show')
    .description('a plan with every version, oldest first')
    .addArgument(recordId('plan'))
    .addOption(formatOption('without-ids'))
    .action((planId: number, options: { format: Format }) =>
      withServices(async (services) => {
        const shown = presentPlan(await services.plans.get(planId));
        if (options.format === 'json') printOne(shown, 'json');
        else {
          const versions = shown.versions.map((version) => ({ id: shown.id, name: shown.name, ...version }));
          print(versions.map(planAsText), options.format, COLUMNS.plan);
        }
      }),
    );
  addMemberPlanCommand(program);
}

/** `gatehouse member plan <platform-id> [--plan <id>]`: sets a member's plan, or lists the plans they had. */
function addMemberPlanCommand(program: GatehouseCommand): void {
  subcommand(program, 'member')
    .command('plan')
    .description("set a member's plan (history kept), or without --plan list the plans they had")
    .addArgument(memberId())
    .option('--plan <id>', 'the plan to put them on', positiveInt)
    .option('--effective-from <time>', 'when it takes effect (ISO-8601; default now)', instant)
    .addOption(formatOption('without-ids'))
    .action((member: string, options: { plan?: number; effectiveFrom?: number; format: Format }) =>
      withServices(async (services) => {
        if (options.plan === undefined && options.effectiveFrom !== undefined) {
          throw new Error('--effective-from needs --plan: the plan that takes effect then');
        }
        if (options.plan === undefined) {
          const plans = await services.plans.memberPlans(member);
          print(
            plans.map((set) => presentMemberPlan(member, set)),
            options.format,
            COLUMNS.memberPlan,
          );
          return;
        }
        const set = await services.plans.setMemberPlan(member, {
          planId: options.plan,
          effectiveFrom: iso(options.effectiveFrom),
        });
        printOne(presentMemberPlan(member, set), options.format);
      }),
    );
}
