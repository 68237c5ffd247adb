import { parseRetrySchedule } from '../domain/webhooks/retry-schedule.js';
import { ConfigError } from './errors.js';
import { describeSetting } from './messages.js';
import type { Setting } from './setting.js';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies.js';

/*
 * What the settings' checks and parses refuse beyond what the schema can tell, each in its own words: the table in
 * ./settings.ts names which setting each serves.
 */

export const DEFAULT_DATABASE_URL = 'sqlite:./data/gatehouse.db';

/** As long as one token alone must be (GATEHOUSE_ADMIN_TOKEN's minLength). */
const ADMIN_TOKEN_MIN_LENGTH = 16;

export function retrySchedule(value: string): readonly number[] {
  try {
    return parseRetrySchedule(value);
  } catch (error) {
    throw new ConfigError(
      `GATEHOUSE_WEBHOOK_RETRY_SCHEDULE=${JSON.stringify(value)}: ${(error as Error).message}`,
    );
  }
}

export function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ConfigError(
      `GATEHOUSE_TIMEZONE=${JSON.stringify(timezone)} is not valid: use an IANA time zone such as UTC or America/Sao_Paulo`,
    );
  }
}

export function trustedProxies(value: string): TrustedProxies {
  try {
    return parseTrustedProxies(value);
  } catch (error) {
    throw new ConfigError(`GATEHOUSE_TRUST_PROXY: ${(error as Error).message}`);
  }
}

/** GATEHOUSE_ADMIN_TOKEN: one token or several, comma-separated; each as long as one alone must be. */
export function adminTokens(value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  const tokens = value.split(',').map((token) => token.trim());
  if (tokens.some((token) => token.length < ADMIN_TOKEN_MIN_LENGTH)) {
    throw new ConfigError(
      `GATEHOUSE_ADMIN_TOKEN is not valid: each comma-separated token must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`,
    );
  }
  return Object.freeze(tokens);
}

/** The pattern lets `postgres://` through with anything after it: the driver needs a URL it can parse. */
export function assertDatabaseUrl(url: string | undefined, setting: Setting): void {
  if (url === undefined || url.startsWith('sqlite:') || URL.canParse(url)) return;
  throw new ConfigError(describeSetting('GATEHOUSE_DATABASE_URL', url, setting));
}
