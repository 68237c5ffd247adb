import type { Kysely } from 'kysely';
import type { CredentialState } from '../../domain/event-streams.js';
import type { Database } from '../database.js';

/**
 * The revocation and expiry of the given keys or operators, by id, in one statement: what the event streams read
 * again every few seconds to end the streams of a credential revoked or expired on any process. An id without a
 * row is left out.
 */
export async function readCredentialStates(
  db: Kysely<Database>,
  table: 'api_keys' | 'operators',
  ids: readonly number[],
): Promise<Map<number, CredentialState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['id', 'revoked_at', 'expires_at'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, { revokedAt: row.revoked_at, expiresAt: row.expires_at }]));
}
