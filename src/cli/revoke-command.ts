import type { Services } from '../services/index.js';
import { withServices } from './context.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { recordId } from './options.js';

/**
 * `<record> revoke <record-id>` (`key revoke <key-id>`): a credential (a key, an operator's token) refused from then
 * on; prints `<record> <id> revoked`. The CLI's side of the operator API's revoke routes.
 */
export function addRevokeCommand(
  record: GatehouseCommand,
  command: {
    readonly description: string;
    /** What the id argument's help says. */
    readonly id: string;
    readonly revoke: (services: Services, id: number) => Promise<void>;
  },
): void {
  const name = record.name();
  record
    .command('revoke')
    .description(command.description)
    .addArgument(recordId(name, command.id))
    .action((id: number) =>
      withServices(async (services) => {
        await command.revoke(services, id);
        process.stdout.write(`${name} ${id} revoked\n`);
      }),
    );
}
