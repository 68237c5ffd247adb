import { expect } from 'vitest';
import type { Store } from '../../src/store/store.js';

/** The tables a "no write" snapshot compares (the audit log is compared where a test needs it). */
export const DATA_TABLES = [
  'partners',
  'gyms',
  'products',
  'api_keys',
  'api_key_gyms',
  'checkins',
  'custom_codes',
  'transactions',
  'reversals',
  'settlements',
  'settlement_entries',
  'events',
  'operators',
  'server_secrets',
] as const;

/** Every row of every table, in a stable order: compare two snapshots to prove a request wrote nothing. */
export async function snapshotStore(store: Store): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of DATA_TABLES) {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    snapshot[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

/** A check-in's ledger rows (commit_order, the partner feed's reading order, is the store's own bookkeeping). */
export async function transactionsOf(store: Store, checkinId: number) {
  return store.db
    .selectFrom('transactions')
    .select([
      'id',
      'checkin_id',
      'partner_id',
      'gym_id',
      'product_id',
      'platform_id',
      'payout_cents',
      'currency',
      'validated_at',
    ])
    .where('checkin_id', '=', checkinId)
    .execute();
}

export async function checkinRow(store: Store, checkinId: number) {
  return store.db.selectFrom('checkins').selectAll().where('id', '=', checkinId).executeTakeFirstOrThrow();
}

export async function customCodeRow(store: Store, gymId: number, platformId: string) {
  return store.db
    .selectFrom('custom_codes')
    .selectAll()
    .where('gym_id', '=', gymId)
    .where('platform_id', '=', platformId)
    .executeTakeFirst();
}

/**
 * The ledger's invariants over the whole store: no check-in has two transactions, every transaction
 * belongs to a validated check-in, and every validated check-in has exactly one transaction.
 */
export async function expectLedgerInvariants(store: Store): Promise<void> {
  const transactions = await store.db.selectFrom('transactions').select(['checkin_id']).execute();
  const perCheckin = new Map<number, number>();
  for (const { checkin_id: id } of transactions) perCheckin.set(id, (perCheckin.get(id) ?? 0) + 1);
  const doubled = [...perCheckin].filter(([, count]) => count > 1);
  expect(doubled, 'check-ins with more than one transaction').toEqual([]);

  const validated = await store.db
    .selectFrom('checkins')
    .select('id')
    .where('status', '=', 'validated')
    .execute();
  const validatedIds = validated.map((row) => row.id).sort((a, b) => a - b);
  const paidIds = [...perCheckin.keys()].sort((a, b) => a - b);
  expect(paidIds, 'transactions and validated check-ins match one to one').toEqual(validatedIds);
}
