import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config/index.js';
import { systemClock, type Clock } from './domain/clock.js';
import { ServiceUnavailableError } from './domain/errors.js';
import { BODY_LIMIT_BYTES } from './http/body-limit.js';
import { consolePlugin } from './http/console.js';
import { contentTypesPlugin } from './http/content-types.js';
import { errorMapperPlugin, frameworkErrors } from './http/error-mapper.js';
import { clientErrorHandler, refuseConnect } from './http/raw-answers.js';
import { healthRoutes } from './http/health-routes.js';
import { createMetrics, registerStreamGauge } from './http/metrics.js';
import { registerWebhookMetrics } from './http/webhook-metrics.js';
import { observabilityPlugin } from './http/observability.js';
import { openApiPlugin } from './http/openapi.js';
import { loggableError, loggerOptions } from './http/logging.js';
import { methodGuard } from './http/method-guard.js';
import { operatorApi } from './operator-api/index.js';
import type { OperatorRoute } from './operator-api/permissions.js';
import { createNatsFeed, type NatsFeed } from './services/nats-feed.js';
import { sandboxHelperApi } from './partner-api/sandbox-helper.js';
import { partnerApi } from './partner-api/index.js';
import { connectRateLimitRedis } from './partner-api/rate-limits.js';
import { createServices, type Services } from './services/index.js';
import { isStoreUnavailable } from './store/create-store.js';
import type { Store } from './store/store.js';
import type { DeliveryLoop, DeliveryObserver, RunnerLog } from './services/webhooks/delivery-runner.js';
import type { Resolver } from './services/webhooks/resolver.js';
import type { Sender } from './services/webhooks/sender.js';

export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock?: Clock;
  /** A logger instance (serve's writes stdout in blocks; tests capture theirs); default: pino on stdout. */
  readonly logger?: FastifyBaseLogger;
  /** False while the store is not yet usable (migrations pending): the APIs answer 503 meanwhile. */
  readonly isAccepting?: () => boolean;
  /** Resolves webhook host names (tests point a name at a private address); default: the system's resolver. */
  readonly resolver?: Resolver;
  /** Where the built console is; default dist/console, as `npm run build` leaves it. */
  readonly consoleDir?: string;
  /**
   * Fastify's schema compilers; default: its own, compiling every route's schemas when the app is built. A process
   * that builds many apps (the test suite) passes compilers that compile each schema once.
   */
  readonly schemaController?: FastifyServerOptions['schemaController'];
  /**
   * Runs webhook delivery elsewhere (`serve`: on a thread of its own), told what to report to `/metrics` and the
   * log; default: the loop on this event loop (src/services/webhooks/delivery-runner.ts).
   */
  readonly deliveryLoop?: (log: RunnerLog, observer: DeliveryObserver) => DeliveryLoop;
  /** Sends the webhook requests of the loop on this event loop (`serve` on SQLite: from a thread); default: here. */
  readonly webhookSender?: Sender;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is a sane token, otherwise makes one. */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** In Fastify's terms: the list of addresses (a copy: it wants a mutable array), or the first `hops` hops. */
function forwardedFor(trusted: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trusted !== 'number') return trusted === false ? false : [...trusted];
  return (_address: string, hop: number) => hop < trusted;
}

export interface App {
  readonly server: FastifyInstance;
  readonly services: Services;
  /** Every operator route as registered, with the permission it declared (the role-matrix test reads it). */
  readonly operatorRoutes: readonly OperatorRoute[];
  /** Webhook delivery: not started here; `serve` starts it once the store is migrated (tests start their own). */
  readonly webhookRunner: DeliveryLoop;
  /** The broker feed, when GATEHOUSE_NATS_URL is set: started like webhook delivery. */
  readonly natsFeed: NatsFeed | undefined;
}

/** Builds the whole HTTP application over a store; listening and shutdown belong to the caller. */
export async function buildApp(deps: AppDependencies): Promise<App> {
  const { config, store } = deps;
  const metrics = createMetrics();
  const services = createServices({
    store,
    clock: deps.clock ?? systemClock,
    config,
    ...(deps.resolver === undefined ? {} : { resolver: deps.resolver }),
    observer: {
      validation: (outcome, seconds) => {
        metrics.validations.inc({ outcome });
        if (outcome === 'validated') metrics.transactions.inc();
        metrics.storeDuration.observe({ operation: 'validate' }, seconds);
      },
      keyLookup: (result) => metrics.keyCache.inc({ result }),
      quotaRefused: (quota) => metrics.quotaRefusals.inc({ quota }),
    },
  });
  registerStreamGauge(metrics.registry, () => services.eventStreams.counts());
  const server = Fastify({
    ...(deps.logger === undefined
      ? { logger: loggerOptions(config.logLevel) }
      : { loggerInstance: deps.logger }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A slow client cannot hold the server: headers, whole request and idle keep-alive are all bounded.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: 1000,
      // Node's own answer to a missing Host has an empty body: the error mapper answers it instead.
      requireHostHeader: false,
    },
    genReqId: requestId,
    // One line per request instead, with partner, gym and outcome (src/http/observability.ts).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: forwardedFor(config.trustProxy),
    frameworkErrors,
    return503OnClosing: false,
    clientErrorHandler,
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
    ...(deps.schemaController === undefined ? {} : { schemaController: deps.schemaController }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  server.server.on('connect', refuseConnect);
  // Key uses noted in memory are written before the store closes.
  server.addHook('onClose', () => services.apiKeys.close());
  // The process registers the release it runs (the rolling-upgrade gate of plans) and leaves when it closes.
  server.addHook('onReady', () => services.fleet.start());
  server.addHook('onClose', () => services.fleet.stop());
  await server.register(errorMapperPlugin, { isStoreUnavailable });
  // Draining on shutdown, or the store not yet migrated: the APIs answer the 503 envelope, not Fastify's own.
  let closing = false;
  server.addHook('preClose', (done) => {
    closing = true;
    // Open event streams end now, so their connections do not hold the drain until the grace period runs out.
    services.eventStreams.close();
    done();
  });
  const isAccepting = () => !closing && (deps.isAccepting?.() ?? true);
  server.addHook('onRequest', (request, _reply, done) => {
    done(
      !isAccepting() && /^\/(access|admin)\//.test(request.url) ? new ServiceUnavailableError() : undefined,
    );
  });
  await server.register(contentTypesPlugin);
  await server.register(observabilityPlugin, { metrics });
  await server.register(openApiPlugin);
  const guard = methodGuard(server);
  await server.register(healthRoutes, {
    isReady: () => store.isReady(),
    metrics,
    isAccepting,
    metricsToken: config.metricsToken,
  });
  const redis = config.redisUrl === undefined ? undefined : await connectRateLimitRedis(config.redisUrl);
  if (redis !== undefined) {
    redis.on('error', (error) =>
      server.log.warn({ error: loggableError(error) }, 'rate-limit store unavailable'),
    );
    server.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  }
  await server.register(partnerApi, { prefix: '/access/v1', services, config, redis });
  await server.register(sandboxHelperApi, { prefix: '/helper/v1', services, config, redis });
  const operatorRoutes: OperatorRoute[] = [];
  await server.register(operatorApi, {
    prefix: '/admin/v1',
    routes: operatorRoutes,
    services,
    adminTokens: config.adminTokens,
    authFailureLimitPerMinute: config.authFailureLimitPerMinute,
    redis,
  });
  await server.register(consolePlugin, deps.consoleDir === undefined ? {} : { dir: deps.consoleDir });
  guard.register();
  const deliveryObserver = registerWebhookMetrics(
    metrics.registry,
    services.webhooks.deliveries.pendingByEndpoint,
    () => services.clock.now(),
  );
  const webhookRunner =
    deps.deliveryLoop?.(server.log, deliveryObserver) ??
    services.webhooks.runner(config, server.log, deliveryObserver, deps.webhookSender);
  server.addHook('onClose', () => webhookRunner.stop());
  const natsFeed =
    config.natsUrl === undefined
      ? undefined
      : createNatsFeed({
          store,
          clock: services.clock,
          url: config.natsUrl,
          prefix: config.natsSubjectPrefix,
          stream: config.natsStream,
          retentionDays: config.eventRetentionDays,
          log: server.log,
        });
  server.addHook('onClose', async () => natsFeed?.stop());
  await server.ready();
  return { server, services, operatorRoutes, webhookRunner, natsFeed };
}
