import envSchema from 'env-schema';
import { ConfigError } from './config-error.js';
import { describeSetting, type Setting } from './config-messages.js';
import { parseTrustedProxies, type TrustedProxies } from './http/trusted-proxies.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetrySchedule } from './domain/webhooks/retry-schedule.js';

export { ConfigError };

export const DEFAULT_DATABASE_URL = 'sqlite:./data/gatehouse.db';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every setting: a JSON Schema property for env-schema, plus `allowed`, the words an error shows when the pattern
 * alone would not tell. Plain JSON Schema rather than TypeBox: loading TypeBox costs every CLI call about 200 ms,
 * a third of an operator command's budget, and this is the only schema a CLI call needs.
 * The README's configuration table and `.env.example` list exactly these variables (a test holds them to it).
 */
export const SETTINGS = {
  GATEHOUSE_HOST: { type: 'string', default: '127.0.0.1', minLength: 1 },
  GATEHOUSE_PORT: { type: 'integer', default: 8080, minimum: 0, maximum: 65535 },
  GATEHOUSE_DATABASE_URL: {
    type: 'string',
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    allowed: 'sqlite:<path>, sqlite::memory: or postgres://<user>@<host>:<port>/<database>',
  },
  GATEHOUSE_ADMIN_TOKEN: {
    type: 'string',
    minLength: 16,
    secret: true,
    allowed:
      'one token of at least 16 characters, or several separated by commas (to rotate without downtime)',
  },
  GATEHOUSE_METRICS_TOKEN: { type: 'string', minLength: 16, secret: true },
  GATEHOUSE_CHECKIN_TTL_SECONDS: { type: 'integer', default: 1200, minimum: 1 },
  GATEHOUSE_DAILY_VISIT_LIMIT: { type: 'integer', default: 1, minimum: 0 },
  GATEHOUSE_TIMEZONE: { type: 'string', default: 'UTC', minLength: 1 },
  GATEHOUSE_CURRENCY: {
    type: 'string',
    default: 'BRL',
    pattern: '^[A-Z]{3}$',
    allowed: 'a three-letter ISO 4217 code such as BRL',
  },
  GATEHOUSE_RATE_LIMIT_PER_SECOND: { type: 'integer', default: 200, minimum: 0 },
  GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: { type: 'integer', default: 60, minimum: 0 },
  GATEHOUSE_TRUST_PROXY: {
    type: 'string',
    default: 'false',
    minLength: 1,
    allowed: 'false, a hop count such as 1, or proxy addresses/CIDRs such as 10.0.0.0/8,127.0.0.1',
  },
  GATEHOUSE_REDIS_URL: { type: 'string', pattern: '^rediss?://.+', allowed: 'redis://… or rediss://…' },
  GATEHOUSE_HEADERS_TIMEOUT_MS: { type: 'integer', default: 5000, minimum: 100 },
  GATEHOUSE_REQUEST_TIMEOUT_MS: { type: 'integer', default: 10_000, minimum: 100 },
  GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS: { type: 'integer', default: 5000, minimum: 100 },
  GATEHOUSE_SHUTDOWN_GRACE_MS: { type: 'integer', default: 10_000, minimum: 0 },
  GATEHOUSE_SQLITE_SYNCHRONOUS: { type: 'string', default: 'full', enum: ['full', 'normal'] },
  GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: { type: 'integer', default: 250, minimum: 0 },
  GATEHOUSE_PG_POOL_SIZE: { type: 'integer', default: 10, minimum: 1 },
  GATEHOUSE_PG_CONNECT_TIMEOUT_MS: { type: 'integer', default: 2000, minimum: 1 },
  GATEHOUSE_PG_STATEMENT_TIMEOUT_MS: { type: 'integer', default: 5000, minimum: 1 },
  GATEHOUSE_PG_IDLE_TIMEOUT_MS: { type: 'integer', default: 10_000, minimum: 0 },
  GATEHOUSE_MIGRATE: { type: 'boolean', default: true },
  GATEHOUSE_KEY_CACHE_SECONDS: { type: 'integer', default: 5, minimum: 0 },
  GATEHOUSE_KEY_USAGE_FLUSH_SECONDS: { type: 'integer', default: 10, minimum: 1 },
  GATEHOUSE_EVENT_RETENTION_DAYS: { type: 'integer', default: 30, minimum: 1 },
  GATEHOUSE_RETENTION_DAYS: { type: 'integer', default: 400, minimum: 1 },
  GATEHOUSE_LOG_LEVEL: { type: 'string', default: 'info', enum: LOG_LEVELS },
  GATEHOUSE_LOG_FORMAT: { type: 'string', default: 'auto', enum: ['auto', 'json', 'pretty'] },
  GATEHOUSE_SECRET_KEY: { type: 'string', minLength: 32, secret: true },
  GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: {
    type: 'string',
    default: DEFAULT_RETRY_SCHEDULE_SECONDS.join(','),
    minLength: 1,
    allowed: 'delays in seconds, comma-separated, such as 5,300,1800',
  },
  GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: { type: 'boolean', default: false },
  GATEHOUSE_NATS_URL: {
    type: 'string',
    pattern: '^(nats|tls)://.+',
    allowed: 'a NATS server, such as nats://127.0.0.1:4222',
  },
  GATEHOUSE_NATS_SUBJECT_PREFIX: {
    type: 'string',
    default: 'gatehouse',
    pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
    allowed: 'NATS subject tokens (letters, digits, - and _) joined by dots',
  },
  GATEHOUSE_NATS_STREAM: {
    type: 'string',
    default: 'GATEHOUSE',
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    allowed: 'a JetStream stream name: letters, digits, - and _',
  },
} as const satisfies Record<string, Setting>;

type Name = keyof typeof SETTINGS;
type ValueOf<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'integer' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : string;
/** What env-schema returns: every setting with a default is present, the others may be absent. */
type Env = {
  readonly [N in Name]: (typeof SETTINGS)[N] extends { default: unknown }
    ? ValueOf<(typeof SETTINGS)[N]>
    : ValueOf<(typeof SETTINGS)[N]> | undefined;
};

/** The JSON Schema env-schema validates with: each setting without our own `allowed` and `secret`. */
function jsonSchema() {
  const ours = new Set(['allowed', 'secret']);
  const properties = Object.fromEntries(
    Object.entries(SETTINGS).map(([name, setting]) => [
      name,
      Object.fromEntries(Object.entries(setting).filter(([keyword]) => !ours.has(keyword))),
    ]),
  );
  return { type: 'object', properties } as const;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly databaseUrl: string;
  /** True when GATEHOUSE_DATABASE_URL was not set: only then may demo data be seeded. */
  readonly databaseUrlIsDefault: boolean;
  /** The first of adminTokens (kept for callers that know one token). */
  readonly adminToken: string | undefined;
  /** Every bootstrap admin token GATEHOUSE_ADMIN_TOKEN lists: several are valid at once, for rotation. */
  readonly adminTokens: readonly string[];
  /** Set: GET /metrics wants it as a bearer token; unset: /metrics is open (keep it off public networks). */
  readonly metricsToken: string | undefined;
  readonly checkinTtlSeconds: number;
  readonly dailyVisitLimit: number;
  readonly timezone: string;
  readonly currency: string;
  readonly rateLimitPerSecond: number;
  readonly authFailureLimitPerMinute: number;
  /** Whose X-Forwarded-For names the client (src/http/trusted-proxies.ts). */
  readonly trustProxy: TrustedProxies;
  /** Rate-limit counters shared by every process; unset: each process counts on its own. */
  readonly redisUrl: string | undefined;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly shutdownGraceMs: number;
  readonly sqliteSynchronous: 'full' | 'normal';
  readonly sqliteBusyTimeoutMs: number;
  readonly pgPoolSize: number;
  readonly pgConnectTimeoutMs: number;
  readonly pgStatementTimeoutMs: number;
  readonly pgIdleTimeoutMs: number;
  readonly migrate: boolean;
  readonly keyCacheSeconds: number;
  /** How often the last use of each key is written (batched: never a write per request). */
  readonly keyUsageFlushSeconds: number;
  /** Delivered event payloads are purged after this many days (the event itself stays, with data null). */
  readonly eventRetentionDays: number;
  /** Check-ins that never became transactions are deleted, with their member, after this many days. */
  readonly retentionDays: number;
  readonly logLevel: string;
  /** JSON lines, or readable ones; `auto`: readable when stdout is a terminal. */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /** Set: webhook secrets are stored encrypted with a key derived from it. */
  readonly secretKey: string | undefined;
  /** Seconds between a webhook delivery's attempts; after the last one it is failed. */
  readonly webhookRetrySchedule: readonly number[];
  /** Webhooks may go to loopback, private and link-local addresses (tests, private networks). */
  readonly webhookAllowPrivate: boolean;
  /** Set: every event is also published to NATS JetStream (src/services/nats-feed.ts). */
  readonly natsUrl: string | undefined;
  /** Events go to `<prefix>.<type>`. */
  readonly natsSubjectPrefix: string;
  /** The JetStream stream (subjects `<prefix>.>`), created when absent. */
  readonly natsStream: string;
}

function retrySchedule(value: string): number[] {
  try {
    return parseRetrySchedule(value);
  } catch (error) {
    throw new ConfigError(
      `GATEHOUSE_WEBHOOK_RETRY_SCHEDULE=${JSON.stringify(value)}: ${(error as Error).message}`,
    );
  }
}

function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ConfigError(
      `GATEHOUSE_TIMEZONE=${JSON.stringify(timezone)} is not valid: use an IANA time zone such as UTC or America/Sao_Paulo`,
    );
  }
}

function trustedProxies(value: string): TrustedProxies {
  try {
    return parseTrustedProxies(value);
  } catch (error) {
    throw new ConfigError(`GATEHOUSE_TRUST_PROXY: ${(error as Error).message}`);
  }
}

/** GATEHOUSE_ADMIN_TOKEN: one token or several, comma-separated; each as long as one alone must be. */
function adminTokens(value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  const tokens = value.split(',').map((token) => token.trim());
  if (tokens.some((token) => token.length < SETTINGS.GATEHOUSE_ADMIN_TOKEN.minLength)) {
    throw new ConfigError(
      `GATEHOUSE_ADMIN_TOKEN is not valid: each comma-separated token must be at least ${SETTINGS.GATEHOUSE_ADMIN_TOKEN.minLength} characters`,
    );
  }
  return Object.freeze(tokens);
}

/** The pattern lets `postgres://` through with anything after it: the driver needs a URL it can parse. */
function assertDatabaseUrl(url: string | undefined): void {
  if (url === undefined || url.startsWith('sqlite:') || URL.canParse(url)) return;
  throw new ConfigError(describeSetting('GATEHOUSE_DATABASE_URL', url, SETTINGS.GATEHOUSE_DATABASE_URL));
}

/** One line per variable env-schema refused, whatever number of rules it broke. */
function describeInvalid(error: unknown, given: Record<string, string | undefined>): string {
  const failures = (error as { errors?: { instancePath?: string }[] }).errors ?? [];
  const names = new Set(failures.map((failure) => failure.instancePath?.replace(/^\//, '') ?? ''));
  const lines = [...names]
    .filter((name): name is Name => name in SETTINGS)
    .map((name) => describeSetting(name, given[name], SETTINGS[name]));
  return lines.length > 0 ? lines.join('\n') : `invalid configuration: ${(error as Error).message}`;
}

/** The only reader of the environment: validates once and returns a frozen config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name.startsWith('GATEHOUSE_') && value !== ''),
  );
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: jsonSchema(), data: relevant, env: false, dotenv: false });
  } catch (error) {
    throw new ConfigError(describeInvalid(error, relevant));
  }
  assertTimezone(parsed.GATEHOUSE_TIMEZONE);
  assertDatabaseUrl(parsed.GATEHOUSE_DATABASE_URL);
  if (parsed.GATEHOUSE_HEADERS_TIMEOUT_MS > parsed.GATEHOUSE_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('GATEHOUSE_HEADERS_TIMEOUT_MS must not exceed GATEHOUSE_REQUEST_TIMEOUT_MS');
  }
  const tokens = adminTokens(parsed.GATEHOUSE_ADMIN_TOKEN);
  return Object.freeze({
    host: parsed.GATEHOUSE_HOST,
    port: parsed.GATEHOUSE_PORT,
    databaseUrl: parsed.GATEHOUSE_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    databaseUrlIsDefault: parsed.GATEHOUSE_DATABASE_URL === undefined,
    adminToken: tokens[0],
    adminTokens: tokens,
    metricsToken: parsed.GATEHOUSE_METRICS_TOKEN,
    checkinTtlSeconds: parsed.GATEHOUSE_CHECKIN_TTL_SECONDS,
    dailyVisitLimit: parsed.GATEHOUSE_DAILY_VISIT_LIMIT,
    timezone: parsed.GATEHOUSE_TIMEZONE,
    currency: parsed.GATEHOUSE_CURRENCY,
    rateLimitPerSecond: parsed.GATEHOUSE_RATE_LIMIT_PER_SECOND,
    authFailureLimitPerMinute: parsed.GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE,
    trustProxy: trustedProxies(parsed.GATEHOUSE_TRUST_PROXY),
    redisUrl: parsed.GATEHOUSE_REDIS_URL,
    headersTimeoutMs: parsed.GATEHOUSE_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: parsed.GATEHOUSE_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: parsed.GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS,
    shutdownGraceMs: parsed.GATEHOUSE_SHUTDOWN_GRACE_MS,
    sqliteSynchronous: parsed.GATEHOUSE_SQLITE_SYNCHRONOUS,
    sqliteBusyTimeoutMs: parsed.GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS,
    pgPoolSize: parsed.GATEHOUSE_PG_POOL_SIZE,
    pgConnectTimeoutMs: parsed.GATEHOUSE_PG_CONNECT_TIMEOUT_MS,
    pgStatementTimeoutMs: parsed.GATEHOUSE_PG_STATEMENT_TIMEOUT_MS,
    pgIdleTimeoutMs: parsed.GATEHOUSE_PG_IDLE_TIMEOUT_MS,
    migrate: parsed.GATEHOUSE_MIGRATE,
    keyCacheSeconds: parsed.GATEHOUSE_KEY_CACHE_SECONDS,
    keyUsageFlushSeconds: parsed.GATEHOUSE_KEY_USAGE_FLUSH_SECONDS,
    eventRetentionDays: parsed.GATEHOUSE_EVENT_RETENTION_DAYS,
    retentionDays: parsed.GATEHOUSE_RETENTION_DAYS,
    logLevel: parsed.GATEHOUSE_LOG_LEVEL,
    logFormat: parsed.GATEHOUSE_LOG_FORMAT,
    secretKey: parsed.GATEHOUSE_SECRET_KEY,
    webhookRetrySchedule: retrySchedule(parsed.GATEHOUSE_WEBHOOK_RETRY_SCHEDULE),
    webhookAllowPrivate: parsed.GATEHOUSE_WEBHOOK_ALLOW_PRIVATE,
    natsUrl: parsed.GATEHOUSE_NATS_URL,
    natsSubjectPrefix: parsed.GATEHOUSE_NATS_SUBJECT_PREFIX,
    natsStream: parsed.GATEHOUSE_NATS_STREAM,
  });
}
