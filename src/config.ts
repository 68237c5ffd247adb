import envSchema from 'env-schema';
import { Type, type Static } from 'typebox';
import { ConfigError } from './config-error.js';

export const DEFAULT_DATABASE_URL = 'sqlite:./data/gatehouse.db';

const EnvSchema = Type.Object({
  GATEHOUSE_HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  GATEHOUSE_PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
  GATEHOUSE_DATABASE_URL: Type.Optional(Type.String({ pattern: '^(sqlite:.+|postgres(ql)?://.+)$' })),
  GATEHOUSE_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  GATEHOUSE_CHECKIN_TTL_SECONDS: Type.Integer({ default: 1200, minimum: 1 }),
  GATEHOUSE_DAILY_VISIT_LIMIT: Type.Integer({ default: 1, minimum: 0 }),
  GATEHOUSE_TIMEZONE: Type.String({ default: 'UTC', minLength: 1 }),
  GATEHOUSE_CURRENCY: Type.String({ default: 'BRL', pattern: '^[A-Z]{3}$' }),
  GATEHOUSE_RATE_LIMIT_PER_SECOND: Type.Integer({ default: 200, minimum: 0 }),
  GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: Type.Integer({ default: 60, minimum: 0 }),
  GATEHOUSE_TRUST_PROXY: Type.Boolean({ default: false }),
  GATEHOUSE_REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://.+' })),
  GATEHOUSE_HEADERS_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100 }),
  GATEHOUSE_REQUEST_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100 }),
  GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100 }),
  GATEHOUSE_SHUTDOWN_GRACE_MS: Type.Integer({ default: 10_000, minimum: 0 }),
  GATEHOUSE_SQLITE_SYNCHRONOUS: Type.Union([Type.Literal('full'), Type.Literal('normal')], {
    default: 'full',
  }),
  GATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: Type.Integer({ default: 250, minimum: 0 }),
  GATEHOUSE_PG_POOL_SIZE: Type.Integer({ default: 10, minimum: 1 }),
  GATEHOUSE_PG_CONNECT_TIMEOUT_MS: Type.Integer({ default: 2000, minimum: 1 }),
  GATEHOUSE_PG_STATEMENT_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 1 }),
  GATEHOUSE_PG_IDLE_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 0 }),
  GATEHOUSE_MIGRATE: Type.Boolean({ default: true }),
  GATEHOUSE_KEY_CACHE_SECONDS: Type.Integer({ default: 5, minimum: 0 }),
  GATEHOUSE_KEY_USAGE_FLUSH_SECONDS: Type.Integer({ default: 10, minimum: 1 }),
  GATEHOUSE_LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
});

type Env = Static<typeof EnvSchema>;

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly databaseUrl: string;
  /** True when GATEHOUSE_DATABASE_URL was not set: only then may demo data be seeded. */
  readonly databaseUrlIsDefault: boolean;
  readonly adminToken: string | undefined;
  readonly checkinTtlSeconds: number;
  readonly dailyVisitLimit: number;
  readonly timezone: string;
  readonly currency: string;
  readonly rateLimitPerSecond: number;
  readonly authFailureLimitPerMinute: number;
  readonly trustProxy: boolean;
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
  readonly logLevel: string;
}

export { ConfigError };

function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ConfigError(`GATEHOUSE_TIMEZONE: unknown time zone "${timezone}"`);
  }
}

/** The only reader of the environment: validates once and returns a frozen config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name.startsWith('GATEHOUSE_') && value !== ''),
  );
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: EnvSchema, data: relevant, env: false, dotenv: false });
  } catch (error) {
    throw new ConfigError(`invalid configuration: ${(error as Error).message}`);
  }
  assertTimezone(parsed.GATEHOUSE_TIMEZONE);
  if (parsed.GATEHOUSE_HEADERS_TIMEOUT_MS > parsed.GATEHOUSE_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('GATEHOUSE_HEADERS_TIMEOUT_MS must not exceed GATEHOUSE_REQUEST_TIMEOUT_MS');
  }
  return Object.freeze({
    host: parsed.GATEHOUSE_HOST,
    port: parsed.GATEHOUSE_PORT,
    databaseUrl: parsed.GATEHOUSE_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    databaseUrlIsDefault: parsed.GATEHOUSE_DATABASE_URL === undefined,
    adminToken: parsed.GATEHOUSE_ADMIN_TOKEN,
    checkinTtlSeconds: parsed.GATEHOUSE_CHECKIN_TTL_SECONDS,
    dailyVisitLimit: parsed.GATEHOUSE_DAILY_VISIT_LIMIT,
    timezone: parsed.GATEHOUSE_TIMEZONE,
    currency: parsed.GATEHOUSE_CURRENCY,
    rateLimitPerSecond: parsed.GATEHOUSE_RATE_LIMIT_PER_SECOND,
    authFailureLimitPerMinute: parsed.GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE,
    trustProxy: parsed.GATEHOUSE_TRUST_PROXY,
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
    logLevel: parsed.GATEHOUSE_LOG_LEVEL,
  });
}
