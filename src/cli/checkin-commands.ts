import { InvalidArgumentError, type Command } from 'commander';
import { MAX_PAGE_SIZE } from '../domain/pagination.js';
import { presentCheckin } from '../presenters/records.js';
import { instant, platformId, positiveInt } from './arguments.js';
import { withServices } from './context.js';
import { COLUMNS } from './columns.js';
import { formatOption, print, printOne, type Format } from './output.js';

const STATUSES = ['pending', 'validated', 'cancelled', 'expired'] as const;
type Status = (typeof STATUSES)[number];

/** `gatehouse checkin create|cancel|list` */
export function addCheckinCommands(program: Command): void {
  const checkin = program.command('checkin').description("members' check-ins, as the member app makes them");
  checkin
    .command('create')
    .description('check a member in at a gym')
    .requiredOption('--platform-id <id>', 'the member (13 digits)', platformId)
    .requiredOption('--gym <id>', 'the gym', positiveInt)
    .requiredOption('--product <id>', 'the product', positiveInt)
    .option('--at <time>', 'when (ISO-8601; default now)', instant)
    .addOption(formatOption())
    .action((options: { platformId: string; gym: number; product: number; at?: number; format: Format }) =>
      withServices(async (services) => {
        const created = await services.checkins.create({
          platformId: options.platformId,
          gymId: options.gym,
          productId: options.product,
          ...(options.at === undefined ? {} : { checkedInAt: options.at }),
        });
        printOne(presentCheckin(created, services.clock.now()), options.format);
      }),
    );
  checkin
    .command('cancel')
    .description('cancel a check-in (until it is validated)')
    .argument('<checkin-id>', 'the check-in', positiveInt)
    .addOption(formatOption())
    .action((checkinId: number, options: { format: Format }) =>
      withServices(async (services) => {
        const cancelled = await services.checkins.cancel(checkinId);
        printOne(presentCheckin(cancelled, services.clock.now()), options.format);
      }),
    );
  checkin
    .command('list')
    .description('list check-ins (the first 1000)')
    .option('--platform-id <id>', 'only this member', platformId)
    .option('--gym <id>', 'only this gym', positiveInt)
    .option('--status <status>', STATUSES.join(', '), (value: string) => {
      if (!(STATUSES as readonly string[]).includes(value))
        throw new InvalidArgumentError(`must be one of ${STATUSES.join(', ')}`);
      return value as Status;
    })
    .addOption(formatOption())
    .action((options: { platformId?: string; gym?: number; status?: Status; format: Format }) =>
      withServices(async (services) => {
        const page = await services.checkins.list(
          {
            ...(options.platformId === undefined ? {} : { platformId: options.platformId }),
            ...(options.gym === undefined ? {} : { gymId: options.gym }),
            ...(options.status === undefined ? {} : { status: options.status }),
          },
          { afterId: 0, limit: MAX_PAGE_SIZE },
        );
        const now = services.clock.now();
        print(
          page.items.map((item) => presentCheckin(item, now)),
          options.format,
          COLUMNS.checkin,
        );
      }),
    );
}
