import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '../domain/webhooks/retry-schedule.js';
import {
  adminTokens,
  assertDatabaseUrl,
  assertTimezone,
  DEFAULT_DATABASE_URL,
  retrySchedule,
  trustedProxies,
} from './rules.js';
import { setting, type ValueOf } from './setting.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every setting, once: its schema, what an error says of it, the `Config` property it becomes and how. Adding a
 * setting is adding an entry. The README's configuration table and `.env.example` list exactly these variables (a
 * test holds them to it). Checks run in this order, so GATEHOUSE_TIMEZONE's comes first.
 */
export const SETTINGS = {
  GATEHOUSE_HOST: setting('host', 'string', { default: '127.0.0.1', minLength: 1 }),
  GATEHOUSE_PORT: setting('port', 'integer', { default: 8080, minimum: 0, maximum: 65535 }),
  GATEHOUSE_TIMEZONE: setting('timezone', 'string', { default: 'UTC', minLength: 1, check: assertTimezone }),
  GATEHOUSE_DATABASE_URL: setting('databaseUrl', 'string', {
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    allowed: 'sqlite:<path>, sqlite::memory: or postgres://<user>@<host>:<port>/<database>',
    check: assertDatabaseUrl,
    parse: (url: string | undefined): string => url ?? DEFAULT_DATABASE_URL,
  }),
  /** Every bootstrap admin token it lists: several are valid at once, for rotation. */
  GATEHOUSE_ADMIN_TOKEN: setting('adminTokens', 'string', {
    minLength: 16,
    secret: true,
    allowed:
      'one token of at least 16 characters, or several separated by commas (to rotate without downtime)',
    parse: adminTokens,
  }),
  /** Set: GET /metrics wants it as a bearer token; unset: /metrics is open (keep it off public networks). */
  GATEHOUSE_METRICS_TOKEN: setting('metricsToken', 'string', { minLength: 16, secret: true }),
  GATEHOUSE_CHECKIN_TTL_SECONDS: setting('checkinTtlSeconds', 'integer', { default: 1200, minimum: 1 }),
  GATEHOUSE_DAILY_VISIT_LIMIT: setting('dailyVisitLimit', 'integer', { default: 1, minimum: 0 }),
  /** The name of the plan of members who have none; unset: they keep the daily visit limit. */
  GATEHOUSE_DEFAULT_PLAN: setting('defaultPlan', 'string', { minLength: 1 }),
  GATEHOUSE_CURRENCY: setting('currency', 'string', {
    default: 'BRL',
    pattern: '^[A-Z]{3}$',
    allowed: 'a three-letter ISO 4217 code such as BRL',
  }),
  GATEHOUSE_RATE_LIMIT_PER_SECOND: setting('rateLimitPerSecond', 'integer', { default: 200, minimum: 0 }),
  GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: setting('authFailureLimitPerMinute', 'integer', {
    default: 60,
    minimum: 0,
  }),
  /** Whose X-Forwarded-For names the client (src/config/trusted-proxies.ts). */
  GATEHOUSE_TRUST_PROXY: setting('trustProxy', 'string', {
    default: 'false',
    minLength: 1,
    allowed: 'false, a hop count such as 1, or proxy addresses/CIDRs such as 10.0.0.0/8,127.0.0.1',
    parse: trustedProxies,
  }),
  /** Rate-limit counters shared by every process; unset: each process counts on its own. */
  GATEHOUSE_REDIS_URL: setting('redisUrl', 'string', {
    pattern: '^rediss?://.+',
    allowed: 'redis://… or rediss://…',
  }),
  GATEHOUSE_HEADERS_TIMEOUT_MS: setting('headersTimeoutMs', 'integer', { default: 5000, minimum: 100 }),
  GATEHOUSE_REQUEST_TIMEOUT_MS: setting('requestTimeoutMs', 'integer', { default: 10_000, minimum: 100 }),
  GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS: setting('keepAliveTimeoutMs', 'integer', { default: 5000, minimum: 100 }),
  GATEHOUSE_SHUTDOWN_GRACE_MS: setting('shutdownGraceMs', 'integer', { default: 10_000, minimum: 0 }),
  GATEHOUSE_SQLITE_SYNCHRONOUS: setting('sqliteSynchronous', 'string', {
    default: 'full',
    enum: ['full', 'normal'],
  }),
  GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: setting('sqliteBusyTimeoutMs', 'integer', { default: 250, minimum: 0 }),
  GATEHOUSE_PG_POOL_SIZE: setting('pgPoolSize', 'integer', { default: 10, minimum: 1 }),
  GATEHOUSE_PG_CONNECT_TIMEOUT_MS: setting('pgConnectTimeoutMs', 'integer', { default: 2000, minimum: 1 }),
  GATEHOUSE_PG_STATEMENT_TIMEOUT_MS: setting('pgStatementTimeoutMs', 'integer', {
    default: 5000,
    minimum: 1,
  }),
  GATEHOUSE_PG_IDLE_TIMEOUT_MS: setting('pgIdleTimeoutMs', 'integer', { default: 10_000, minimum: 0 }),
  GATEHOUSE_MIGRATE: setting('migrate', 'boolean', { default: true }),
  GATEHOUSE_KEY_CACHE_SECONDS: setting('keyCacheSeconds', 'integer', { default: 5, minimum: 0 }),
  /** How often the last use of each key is written (batched: never a write per request). */
  GATEHOUSE_KEY_USAGE_FLUSH_SECONDS: setting('keyUsageFlushSeconds', 'integer', { default: 10, minimum: 1 }),
  /** Delivered event payloads are purged after this many days (the event itself stays, with data null). */
  GATEHOUSE_EVENT_RETENTION_DAYS: setting('eventRetentionDays', 'integer', { default: 30, minimum: 1 }),
  /** Check-ins that never became transactions are deleted, with their member, after this many days. */
  GATEHOUSE_RETENTION_DAYS: setting('retentionDays', 'integer', { default: 400, minimum: 1 }),
  GATEHOUSE_LOG_LEVEL: setting('logLevel', 'string', { default: 'info', enum: LOG_LEVELS }),
  /** JSON lines, or readable ones; `auto`: readable when stdout is a terminal. */
  GATEHOUSE_LOG_FORMAT: setting('logFormat', 'string', { default: 'auto', enum: ['auto', 'json', 'pretty'] }),
  /** Set: webhook secrets are stored encrypted with a key derived from it. */
  GATEHOUSE_SECRET_KEY: setting('secretKey', 'string', { minLength: 32, secret: true }),
  /** Seconds between a webhook delivery's attempts; after the last one it is failed. */
  GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: setting('webhookRetrySchedule', 'string', {
    default: DEFAULT_RETRY_SCHEDULE_SECONDS.join(','),
    minLength: 1,
    allowed: 'delays in seconds, comma-separated, such as 5,300,1800',
    parse: retrySchedule,
  }),
  /** Webhooks may go to loopback, private and link-local addresses (tests, private networks). */
  GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: setting('webhookAllowPrivate', 'boolean', { default: false }),
  /** `serve` delivers webhooks from a thread of its own (README, "What delivery costs"); false: the serving thread. */
  GATEHOUSE_WEBHOOK_THREAD: setting('webhookThread', 'boolean', { default: true }),
  /** At most this many webhook endpoints per partner, disabled ones included (README, "Webhooks"). */
  GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: setting('webhookEndpointsPerPartner', 'integer', {
    default: 10,
    minimum: 1,
  }),
  /** Event streams open at once per key·gym, and per operator token; one more is 429 `stream.limit`. */
  GATEHOUSE_STREAMS_PER_CREDENTIAL: setting('streamsPerCredential', 'integer', { default: 20, minimum: 1 }),
  /** Event streams open at once in one process, every credential's; one more is 429 `stream.limit`. */
  GATEHOUSE_STREAMS_PER_PROCESS: setting('streamsPerProcess', 'integer', { default: 1000, minimum: 1 }),
  /** An event stream ends after this long (`event: end`, reason `lifetime`); the client resumes with Last-Event-ID. */
  GATEHOUSE_STREAM_MAX_SECONDS: setting('streamMaxSeconds', 'integer', { default: 3600, minimum: 1 }),
  /**
   * How often the credentials of open streams are read again, once per credential whatever its streams: a revoked
   * or expired one ends them within this (plus a poll), on every process.
   */
  GATEHOUSE_STREAM_CREDENTIAL_CHECK_MS: setting('streamCredentialCheckMs', 'integer', {
    default: 1000,
    minimum: 50,
    maximum: 4000,
  }),
  /** Set: every event is also published to NATS JetStream (src/services/nats-feed.ts). */
  GATEHOUSE_NATS_URL: setting('natsUrl', 'string', {
    pattern: '^(nats|tls)://.+',
    allowed: 'a NATS server, such as nats://127.0.0.1:4222',
  }),
  /** Events go to `<prefix>.<type>`. */
  GATEHOUSE_NATS_SUBJECT_PREFIX: setting('natsSubjectPrefix', 'string', {
    default: 'gatehouse',
    pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
    allowed: 'NATS subject tokens (letters, digits, - and _) joined by dots',
  }),
  /** The JetStream stream (subjects `<prefix>.>`), created when absent. */
  GATEHOUSE_NATS_STREAM: setting('natsStream', 'string', {
    default: 'GATEHOUSE',
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    allowed: 'a JetStream stream name: letters, digits, - and _',
  }),
};

export type Settings = typeof SETTINGS;
export type Name = keyof Settings;

/** What env-schema returns: every setting with a default is present, the others may be absent. */
export type Env = { readonly [N in Name]: ValueOf<Settings[N]> };

/** The configuration the table describes: each setting under its key, as its parse makes it. */
export type FromSettings = {
  readonly [
    N in Name as Settings[N] extends { key: infer K extends string } ? K : never
  ]: Settings[N] extends { parse: (value: never) => infer T } ? T : Env[N];
};
