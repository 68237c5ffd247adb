import { MAX_PAGE_SIZE } from '../domain/pagination.js';
import { presentCheckin } from '../presenters/records.js';
import { instant, oneOf, platformId, positiveInt } from './arguments.js';
import { COLUMNS } from './columns.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { requiredId } from './options.js';

const STATUSES = ['pending', 'validated', 'cancelled', 'expired'] as const;
type Status = (typeof STATUSES)[number];

/** `gatehouse checkin create|cancel|list` */
export function addCheckinCommands(program: GatehouseCommand): void {
  const checkin = program.command('checkin').description("members' check-ins, as the member app makes them");
  checkin
    .command('create')
    .description('check a member in at a gym')
    .requiredOption('--platform-id <id>', 'the member (13 digits)', platformId)
    .addOption(requiredId('gym'))
    .requiredOption('--product <id>', 'the product', positiveInt)
    .option('--at <time>', 'when (ISO-8601; default now)', instant)
    .printsRecord(
      async (services, options: { platformId: string; gym: number; product: number; at?: number }) => {
        const created = await services.checkins.create({
          platformId: options.platformId,
          gymId: options.gym,
          productId: options.product,
          ...(options.at === undefined ? {} : { checkedInAt: options.at }),
        });
        return presentCheckin(created, services.clock.now());
      },
    );
  checkin
    .command('cancel')
    .description('cancel a check-in (until it is validated)')
    .argument('<checkin-id>', 'the check-in', positiveInt)
    .printsRecord(async (services, checkinId: number) =>
      presentCheckin(await services.checkins.cancel(checkinId), services.clock.now()),
    );
  checkin
    .command('list')
    .description('list check-ins (the first 1000)')
    .option('--platform-id <id>', 'only this member', platformId)
    .option('--gym <id>', 'only this gym', positiveInt)
    .option('--status <status>', STATUSES.join(', '), oneOf(STATUSES))
    .option('--sandbox', "sandbox partners' check-ins instead of the live network's")
    .printsRecords(
      COLUMNS.checkin,
      async (
        services,
        options: { platformId?: string; gym?: number; status?: Status; sandbox?: boolean },
      ) => {
        const page = await services.checkins.list(
          {
            sandbox: options.sandbox === true,
            ...(options.platformId === undefined ? {} : { platformId: options.platformId }),
            ...(options.gym === undefined ? {} : { gymId: options.gym }),
            ...(options.status === undefined ? {} : { status: options.status }),
          },
          { afterId: 0, limit: MAX_PAGE_SIZE },
        );
        const now = services.clock.now();
        return page.items.map((item) => presentCheckin(item, now));
      },
    );
}
