import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { stampOnce } from '../stamp-once.js';

type Db = Kysely<Database>;

/**
 * Changes to partners, gyms and products after their creation. Each returns whether the row exists; a retired
 * gym or product keeps the moment it was first retired.
 */
export async function updatePartnerRow(db: Db, id: number, name: string): Promise<boolean> {
  const result = await db.updateTable('partners').set({ name }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateGymRow(
  db: Db,
  id: number,
  change: { name?: string; timezone?: string },
): Promise<boolean> {
  const result = await db.updateTable('gyms').set(change).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateProductRow(
  db: Db,
  id: number,
  change: { description?: string; payout_cents?: number; currency?: string },
): Promise<boolean> {
  const result = await db.updateTable('products').set(change).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function retireRow(db: Db, table: 'gyms' | 'products', id: number, at: number): Promise<void> {
  await stampOnce(db, table, 'retired_at', at).where('id', '=', id).execute();
}

/**
 * Offboards a partner: every live key revoked, every webhook endpoint disabled, every gym retired; the ledger
 * and settlements stay. Returns the ids it changed, for the audit.
 */
export async function offboardPartnerRows(db: Db, partnerId: number, at: number) {
  const keys = await stampOnce(db, 'api_keys', 'revoked_at', at)
    .where('partner_id', '=', partnerId)
    .returning('id')
    .execute();
  const webhooks = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: 'offboarded', updated_at: at })
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'enabled')
    .returning('id')
    .execute();
  const gyms = await stampOnce(db, 'gyms', 'retired_at', at)
    .where('partner_id', '=', partnerId)
    .returning('id')
    .execute();
  await stampOnce(db, 'partners', 'offboarded_at', at).where('id', '=', partnerId).execute();
  const ids = (rows: { id: number }[]) => rows.map((row) => Number(row.id));
  return { keys: ids(keys), webhooks: ids(webhooks), gyms: ids(gyms) };
}
