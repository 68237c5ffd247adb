import type { Kysely } from 'kysely';
import type { CompatibilityProfile } from '../../domain/compatibility.js';
import type { ApiKey } from '../../domain/entities.js';
import { COMPATIBILITY_COLUMNS, toCompatibility } from '../catalog/compatibility-repository.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { ApiKeyRow, Database } from '../database.js';
import { findById } from '../find-by-id.js';
import { pageById } from '../paging.js';
import { stampOnce } from '../stamp-once.js';

type Db = Kysely<Database>;

function toApiKey(row: ApiKeyRow, gymIds: readonly number[] | null): ApiKey {
  return {
    id: row.id,
    partnerId: row.partner_id,
    prefix: row.prefix,
    label: row.label,
    gymIds,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  };
}

export async function insertApiKey(
  db: Db,
  key: {
    partnerId: number;
    prefix: string;
    hash: string;
    label: string | null;
    gymIds: readonly number[] | null;
    expiresAt: number | null;
  },
  now: number,
): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({
      partner_id: key.partnerId,
      prefix: key.prefix,
      key_hash: key.hash,
      label: key.label,
      scope: key.gymIds === null ? 'all' : 'list',
      expires_at: key.expiresAt,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (key.gymIds !== null && key.gymIds.length > 0) {
    await db
      .insertInto('api_key_gyms')
      .values(key.gymIds.map((gymId) => ({ key_id: row.id, gym_id: gymId })))
      .execute();
  }
  return toApiKey(row, key.gymIds);
}

/** A key as a request presents it: with its partner's compatibility profile, read in the same statement. */
export interface PresentedKey {
  readonly key: ApiKey;
  readonly compatibility: CompatibilityProfile;
}

/** Looks a key up by the hash of the presented secret: the secret itself is never compared. */
export async function findApiKeyByHash(db: Db, hash: string): Promise<PresentedKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('partners', 'partners.id', 'api_keys.partner_id')
    .selectAll('api_keys')
    .select(COMPATIBILITY_COLUMNS)
    .where('key_hash', '=', hash)
    .executeTakeFirst();
  return row && { key: await withGyms(db, row), compatibility: toCompatibility(row) };
}

export async function findApiKey(db: Db, id: number): Promise<ApiKey | undefined> {
  return findById(db, 'api_keys', id, (row) => withGyms(db, row));
}

/** The key with the gyms it may use (null: every gym of its partner). */
async function withGyms(db: Db, row: ApiKeyRow): Promise<ApiKey> {
  return toApiKey(row, row.scope === 'all' ? null : await keyGymIds(db, row.id));
}

async function keyGymIds(db: Db, keyId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('api_key_gyms')
    .select('gym_id')
    .where('key_id', '=', keyId)
    .orderBy('gym_id')
    .execute();
  return rows.map((row) => row.gym_id);
}

/** Marks a key revoked; revoking twice keeps the first revocation time. */
export async function revokeApiKey(db: Db, id: number, now: number): Promise<void> {
  await stampOnce(db, 'api_keys', 'revoked_at', now).where('id', '=', id).execute();
}

export async function listPartnerKeys(db: Db, partnerId: number, page: PageRequest): Promise<ApiKey[]> {
  const rows = await pageById(
    db.selectFrom('api_keys').selectAll().where('partner_id', '=', partnerId),
    page,
  ).execute();
  const listed = rows.filter((row) => row.scope === 'list').map((row) => row.id);
  const scopes =
    listed.length === 0
      ? []
      : await db
          .selectFrom('api_key_gyms')
          .select(['key_id', 'gym_id'])
          .where('key_id', 'in', listed)
          .orderBy('gym_id')
          .execute();
  return rows.map((row) =>
    toApiKey(
      row,
      row.scope === 'all'
        ? null
        : scopes.filter((scope) => scope.key_id === row.id).map((scope) => scope.gym_id),
    ),
  );
}

/** Records when keys were last used; an older time never overwrites a newer one. */
export async function touchApiKeys(db: Db, lastUsed: ReadonlyMap<number, number>): Promise<void> {
  for (const [id, at] of lastUsed) {
    await db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }
}
