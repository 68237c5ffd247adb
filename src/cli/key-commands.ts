import { presentKey } from '../presenters/records.js';
import { instant, positiveInts } from './arguments.js';
import { COLUMNS } from './columns.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { FIRST_PAGE, requiredId } from './options.js';
import { addRevokeCommand } from './revoke-command.js';

const SHOWN_ONCE =
  'This is the only time the key is shown: gatehouse stores only its hash. Give it to the partner now.\n';

/** `gatehouse key issue|list|revoke` */
export function addKeyCommands(program: GatehouseCommand): void {
  const key = program.command('key').description("API keys: a partner's access to its gyms");
  key
    .command('issue')
    .description('issue a key; its secret is printed once and never stored')
    .addOption(requiredId('partner'))
    .option('--label <label>', 'a name to recognise it by')
    .option(
      '--gyms <ids>',
      'comma-separated gym ids it may act on (default: all, present and future)',
      positiveInts,
    )
    .option('--expires-at <time>', 'when it stops working (ISO-8601)', instant)
    .printsSecret(
      'key',
      SHOWN_ONCE,
      async (services, options: { partner: number; label?: string; gyms?: number[]; expiresAt?: number }) => {
        const issued = await services.apiKeys.issue(options.partner, {
          label: options.label ?? null,
          gymIds: options.gyms ?? null,
          expiresAt: options.expiresAt ?? null,
        });
        return { record: presentKey(issued.key), secret: issued.secret };
      },
    );
  key
    .command('list')
    .description("list a partner's keys (never their secrets)")
    .addOption(requiredId('partner'))
    .printsRecords(COLUMNS.apiKey, async (services, options: { partner: number }) =>
      (await services.apiKeys.list(options.partner, FIRST_PAGE)).items.map(presentKey),
    );
  addRevokeCommand(key, {
    description: 'revoke a key: every gatehouse process refuses it within GATEHOUSE_KEY_CACHE_SECONDS',
    id: 'the key (its id, as key list shows it)',
    revoke: (services, id) => services.apiKeys.revoke(id),
  });
}
