import { InvalidArgumentError } from 'commander';
import { PARTNER_EVENT_TYPES, type EventType } from '../domain/events.js';
import { presentAttempt, presentDelivery, presentEndpoint } from '../presenters/webhooks.js';
import { instant, oneOf, positiveInt, positiveInts } from './arguments.js';
import { given } from '../domain/given.js';
import { COLUMNS } from './columns.js';
import { withServices } from './context.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { FIRST_PAGE, recordId, requiredId } from './options.js';
import type { Row } from './output.js';

const SHOWN_ONCE = 'This is the only time the secret is shown. Give it to the receiver now.\n';
const ENDPOINT_COLUMNS = [
  'id',
  'partner_id',
  'url',
  'event_types',
  'gym_ids',
  'format',
  'timeout_ms',
  'status',
];
const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'last_status_code',
];

/** How much of a receiver's answer a table shows: --format json or csv prints all the log keeps. */
const EXCERPT_SHOWN = 40;

/** An attempt as a table row: when, how it ended, how long it took, and the start of the answer. */
function attemptRow(row: Row, format: 'table' | 'csv'): Row {
  if (format === 'csv') return row;
  const attempt = row as ReturnType<typeof presentAttempt>;
  const excerpt = attempt.response_excerpt;
  return {
    attempt: attempt.attempt,
    attempted_at: attempt.attempted_at,
    status_code: attempt.status_code,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    response_excerpt:
      excerpt !== null && excerpt.length > EXCERPT_SHOWN
        ? `${excerpt.slice(0, EXCERPT_SHOWN - 1)}…`
        : excerpt,
  };
}

function eventTypes(value: string): EventType[] {
  const types = value.split(',').map((part) => part.trim());
  const unknown = types.filter((type) => !(PARTNER_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw new InvalidArgumentError(`must be among ${PARTNER_EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

const deliveryStatus = oneOf(
  ['pending', 'delivered', 'failed'] as const,
  'must be pending, delivered or failed',
);

interface EndpointOptions {
  url?: string;
  events?: EventType[];
  gyms?: number[];
  timeoutMs?: number;
}
const endpointChanges = (o: EndpointOptions) =>
  given({ url: o.url, eventTypes: o.events, gymIds: o.gyms, timeoutMs: o.timeoutMs });

/** `gatehouse webhook add|list|update|remove|rotate|enable|deliveries|attempts|retry|recover` */
export function addWebhookCommands(program: GatehouseCommand): void {
  const webhook = program
    .command('webhook')
    .description("webhooks: a partner's endpoints and their delivery log");
  webhook
    .command('add')
    .description('register an endpoint; its signing secret is printed once')
    .addOption(requiredId('partner'))
    .requiredOption('--url <url>', 'where events are POSTed (http or https)')
    .option('--events <types>', 'comma-separated event types (default: all)', eventTypes)
    .option('--gyms <ids>', 'comma-separated gym ids (default: all the partner’s)', positiveInts)
    .option('--timeout-ms <ms>', 'how long the receiver has to answer (default 15000)', positiveInt)
    .option('--secret <whsec>', 'a secret of your own (default: generated; required with --wellhub)')
    .option('--wellhub', "deliver checkin.created as Wellhub's checkin webhook (X-Gympass-Signature)")
    .printsSecret(
      'secret',
      SHOWN_ONCE,
      async (
        services,
        o: EndpointOptions & { partner: number; url: string; secret?: string; wellhub?: boolean },
      ) => {
        const created = await services.webhooks.endpoints.create(o.partner, {
          ...endpointChanges(o),
          url: o.url,
          ...given({ secret: o.secret }),
          ...(o.wellhub === true ? { format: 'wellhub' as const } : {}),
        });
        return { record: presentEndpoint(created.endpoint), secret: created.secret };
      },
    );
  webhook
    .command('list')
    .description("list a partner's endpoints (never their secrets)")
    .addOption(requiredId('partner'))
    .printsRecords(ENDPOINT_COLUMNS, async (services, o: { partner: number }) => {
      const page = await services.webhooks.endpoints.list(o.partner, FIRST_PAGE);
      return page.items.map(presentEndpoint);
    });
  webhook
    .command('update')
    .description('change an endpoint')
    .addArgument(recordId('webhook', 'the endpoint'))
    .option('--url <url>', 'a new URL')
    .option('--events <types>', 'comma-separated event types', eventTypes)
    .option('--gyms <ids>', 'comma-separated gym ids', positiveInts)
    .option('--timeout-ms <ms>', 'how long the receiver has to answer', positiveInt)
    .printsRecord(async (services, id: number, o: EndpointOptions) =>
      presentEndpoint(await services.webhooks.endpoints.update(id, endpointChanges(o))),
    );
  webhook
    .command('remove')
    .description('remove an endpoint and its delivery log')
    .addArgument(recordId('webhook', 'the endpoint'))
    .action((id: number) =>
      withServices(async (services) => {
        await services.webhooks.endpoints.remove(id);
        process.stdout.write(`webhook ${id} removed\n`);
      }),
    );
  webhook
    .command('rotate')
    .description('a new signing secret, printed once; the old one signs beside it for 24 hours')
    .addArgument(recordId('webhook', 'the endpoint'))
    .option('--secret <whsec>', 'a secret of your own (default: generated)')
    .action((id: number, o: { secret?: string }) =>
      withServices(async (services) => {
        const secret = await services.webhooks.endpoints.rotate(id, o.secret);
        process.stdout.write(`secret: ${secret}\n\n${SHOWN_ONCE}`);
      }),
    );
  webhook
    .command('enable')
    .description('enable an endpoint again after gatehouse disabled it')
    .addArgument(recordId('webhook', 'the endpoint'))
    .printsRecord(async (services, id: number) =>
      presentEndpoint(await services.webhooks.endpoints.enable(id)),
    );
  webhook
    .command('deliveries')
    .description("an endpoint's delivery log, oldest first")
    .addArgument(recordId('webhook', 'the endpoint'))
    .option('--status <status>', 'pending, delivered or failed', deliveryStatus)
    .option('--event-type <type>', 'one event type', (value: string) => eventTypes(value)[0])
    .printsRecords(
      DELIVERY_COLUMNS,
      async (
        services,
        id: number,
        o: { status?: 'pending' | 'delivered' | 'failed'; eventType?: string },
      ) => {
        const page = await services.webhooks.deliveries.list(
          id,
          given({ status: o.status, eventType: o.eventType }),
          FIRST_PAGE,
        );
        return page.items.map(presentDelivery);
      },
    );
  webhook
    .command('attempts')
    .description(
      "a delivery's attempts, oldest first: when, status or error, duration, the start of the answer",
    )
    .addArgument(recordId('delivery'))
    .printsRecords(
      COLUMNS.deliveryAttempt,
      async (services, id: number) =>
        (await services.webhooks.deliveries.attemptsOfDelivery(id, FIRST_PAGE)).items.map(presentAttempt),
      attemptRow,
    );
  webhook
    .command('retry')
    .description('send one delivery again (a running gatehouse serve makes the attempt)')
    .addArgument(recordId('delivery'))
    .action((id: number) =>
      withServices(async (services) => {
        await services.webhooks.deliveries.retry(id);
        process.stdout.write(`delivery ${id} is due now\n`);
      }),
    );
  webhook
    .command('recover')
    .description('send again every failed delivery of an endpoint created since a time')
    .addArgument(recordId('webhook', 'the endpoint'))
    .requiredOption('--since <time>', 'ISO-8601', instant)
    .action((id: number, o: { since: number }) =>
      withServices(async (services) => {
        const count = await services.webhooks.deliveries.recover(id, o.since);
        process.stdout.write(`${count} failed deliveries of webhook ${id} are due now\n`);
      }),
    );
}
