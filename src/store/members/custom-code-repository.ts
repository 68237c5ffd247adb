import type { Kysely } from 'kysely';
import type { CodeKey } from '../../domain/decisions/custom-code.js';
import type { CustomCode } from '../../domain/entities.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** Inserts a code; false when the member already has one at the gym. */
export async function insertCustomCode(db: Db, key: CodeKey, code: string, now: number): Promise<boolean> {
  const rows = await db
    .insertInto('custom_codes')
    .values({ gym_id: key.gymId, platform_id: key.platformId, code, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['gym_id', 'platform_id']).doNothing())
    .returning('gym_id')
    .execute();
  return rows.length > 0;
}

/** Updates an existing code; returns false when there is none. */
export async function updateCustomCode(db: Db, key: CodeKey, code: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('custom_codes')
    .set({ code, updated_at: now })
    .where('gym_id', '=', key.gymId)
    .where('platform_id', '=', key.platformId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteCustomCode(db: Db, key: CodeKey): Promise<boolean> {
  const result = await db
    .deleteFrom('custom_codes')
    .where('gym_id', '=', key.gymId)
    .where('platform_id', '=', key.platformId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function findCustomCode(db: Db, key: CodeKey): Promise<CustomCode | undefined> {
  const row = await db
    .selectFrom('custom_codes')
    .selectAll()
    .where('gym_id', '=', key.gymId)
    .where('platform_id', '=', key.platformId)
    .executeTakeFirst();
  return row && { gymId: row.gym_id, platformId: row.platform_id, code: row.code, updatedAt: row.updated_at };
}
