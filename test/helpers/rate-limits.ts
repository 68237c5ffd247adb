import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { Arranged } from './factories.js';
import { JSON_TYPE, RATE_LIMITED } from './wire-bodies.js';
import type { TestApp } from './test-app.js';

type Headers = Record<string, string>;

/** GET /access/v1/code/:platform_id — a read that writes nothing, so a burst of it only spends the budget. */
export function readCode(
  t: Pick<TestApp, 'app'>,
  headers: Headers,
  member: string,
  extra: Partial<InjectOptions> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: `/access/v1/code/${member}`, headers, ...extra });
}

/** The arranged headers with another Bearer token. */
export function withToken(a: Pick<Arranged, 'headers'>, token: string): Headers {
  return { ...a.headers, authorization: `Bearer ${token}` };
}

/** A 429 as documented: the envelope, JSON, and Retry-After within the window. */
export function expectRateLimited(response: LightMyRequestResponse, windowSeconds: number): void {
  expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
    status: 429,
    body: RATE_LIMITED,
  });
  expect(response.headers['content-type']).toBe(JSON_TYPE);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter), `Retry-After ${response.headers['retry-after']}`).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

/**
 * Makes the next API key ids start at `next`. The per-key counters are named after the key's id, and a Redis
 * server outlives test runs (and serves other suites): a random id gives each run counters of its own.
 */
export async function startKeyIdsAt(store: Store, next: number): Promise<void> {
  if (store.dialect === 'postgres') {
    await sql`alter table api_keys alter column id restart with ${sql.lit(next)}`.execute(store.db);
    return;
  }
  await sql`delete from sqlite_sequence where name = 'api_keys'`.execute(store.db);
  await sql`insert into sqlite_sequence (name, seq) values ('api_keys', ${next - 1})`.execute(store.db);
}
