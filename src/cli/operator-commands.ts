import type { Command } from 'commander';
import { ROLES } from '../domain/operator.js';
import { presentOperator } from '../presenters/records.js';
import { instant, oneOf } from './arguments.js';
import { withServices } from './context.js';
import { COLUMNS } from './columns.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { FIRST_PAGE, memberId } from './options.js';
import { addRevokeCommand } from './revoke-command.js';

const SHOWN_ONCE =
  'This is the only time the token is shown: gatehouse stores only its hash. Give it to the operator now.\n';

const role = oneOf(ROLES);

/** `gatehouse operator create|list|revoke`: run with the database's access, as the bootstrap admin. */
export function addOperatorCommands(program: GatehouseCommand): void {
  const operator = program.command('operator').description('operators of the operator API: a role each');
  operator
    .command('create')
    .description('create an operator; its token is printed once and never stored')
    .requiredOption('--name <name>', 'a login or an e-mail address, as the audit log will name it')
    .requiredOption('--role <role>', ROLES.join(', '), role)
    .option('--expires-at <time>', 'when its token stops working (ISO-8601)', instant)
    .printsSecret(
      'token',
      SHOWN_ONCE,
      async (services, options: { name: string; role: string; expiresAt?: number }) => {
        const issued = await services.operators.create({
          name: options.name,
          role: options.role,
          expiresAt: options.expiresAt ?? null,
        });
        return { record: presentOperator(issued.operator), secret: issued.token };
      },
    );
  operator
    .command('list')
    .description('list operators (never their tokens)')
    .printsRecords(COLUMNS.operator, async (services) =>
      (await services.operators.list(FIRST_PAGE)).items.map(presentOperator),
    );
  addRevokeCommand(operator, {
    description: "revoke an operator's token: refused from its next request on, in every process",
    id: 'the operator (its id, as operator list shows it)',
    revoke: (services, id) => services.operators.revoke(id),
  });
}

/** `gatehouse member erase` and `gatehouse purge`: members' data. */
export function addMemberDataCommands(program: Command): void {
  const member = program.command('member').description("a member's data");
  member
    .command('erase')
    .description(
      "erase a member's data: codes deleted, stored event payloads purged, the id replaced by a pseudonym (irreversible)",
    )
    .addArgument(memberId())
    .action((id: string) =>
      withServices(async (services) => {
        const { pseudonym, erased, notReached } = await services.members.erase(id);
        process.stdout.write(
          `member erased: now ${pseudonym} (custom codes deleted: ${erased.customCodes}, check-ins: ${erased.checkins}, ` +
            `transactions: ${erased.transactions}, event payloads purged: ${erased.events}, audit entries: ${erased.auditEntries}, ` +
            `webhook deliveries: ${erased.webhookDeliveries}, reversal reasons: ${erased.reversalReasons})\n` +
            notReached.map((copy) => `not reached: ${copy}\n`).join(''),
        );
      }),
    );
  program
    .command('purge')
    .description(
      'apply retention now (serve does it daily): old event payloads, old check-ins that never became transactions',
    )
    .action(() =>
      withServices(async (services, config) => {
        const purged = await services.retention.purge();
        process.stdout.write(
          `purged ${purged.eventPayloads} event payloads older than ${config.eventRetentionDays} days and ` +
            `${purged.checkins} unpaid check-ins older than ${config.retentionDays} days\n`,
        );
      }),
    );
}
