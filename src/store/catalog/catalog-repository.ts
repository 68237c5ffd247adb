import type { Kysely } from 'kysely';
import type { Gym, Partner, Product } from '../../domain/entities.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { Database, GymRow, PartnerRow, ProductRow } from '../database.js';
import { findById } from '../find-by-id.js';
import { pageById } from '../paging.js';

type Db = Kysely<Database>;

const toPartner = (row: PartnerRow): Partner => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  offboardedAt: row.offboarded_at,
  sandbox: Number(row.sandbox) === 1,
});

const toGym = (row: GymRow): Gym => ({
  id: row.id,
  partnerId: row.partner_id,
  name: row.name,
  createdAt: row.created_at,
  timezone: row.timezone,
  retiredAt: row.retired_at,
});

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  gymId: row.gym_id,
  description: row.description,
  payoutCents: row.payout_cents,
  currency: row.currency,
  retiredAt: row.retired_at,
  category: row.category,
});

export async function findPartner(db: Db, id: number): Promise<Partner | undefined> {
  return findById(db, 'partners', id, toPartner);
}

export async function findGym(db: Db, id: number): Promise<Gym | undefined> {
  return findById(db, 'gyms', id, toGym);
}

export async function insertPartner(db: Db, name: string, now: number, sandbox = false): Promise<Partner> {
  const row = await db
    .insertInto('partners')
    .values({ name, created_at: now, sandbox: sandbox ? 1 : 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPartner(row);
}

/**
 * The next id of a table whose ids may also be chosen by the operator (gyms, products): one past the greatest.
 * Callers hold `store.serialize(trx, table)` so two creations cannot take the same one.
 */
async function nextId(db: Db, table: 'gyms' | 'products'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** Inserts a gym; with no id, takes the next free one. Returns undefined when the id is taken. */
export async function insertGym(
  db: Db,
  gym: { id: number | undefined; partnerId: number; name: string; timezone: string | null },
  now: number,
): Promise<Gym | undefined> {
  const id = gym.id ?? (await nextId(db, 'gyms'));
  const row = await db
    .insertInto('gyms')
    .values({ id, partner_id: gym.partnerId, name: gym.name, timezone: gym.timezone, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && toGym(row);
}

export async function insertProduct(
  db: Db,
  product: Omit<Product, 'id' | 'retiredAt'> & { id: number | undefined },
  now: number,
): Promise<Product | undefined> {
  const row = await db
    .insertInto('products')
    .values({
      id: product.id ?? (await nextId(db, 'products')),
      gym_id: product.gymId,
      description: product.description,
      payout_cents: product.payoutCents,
      currency: product.currency,
      category: product.category,
      created_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && toProduct(row);
}

export async function findProduct(db: Db, id: number): Promise<Product | undefined> {
  return findById(db, 'products', id, toProduct);
}

export async function hasAnyPartner(db: Db): Promise<boolean> {
  return (await db.selectFrom('partners').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function listGymProducts(db: Db, gymId: number): Promise<Product[]> {
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('gym_id', '=', gymId)
    .orderBy('id')
    .execute();
  return rows.map(toProduct);
}

export async function listPartners(db: Db, page: PageRequest): Promise<Partner[]> {
  const rows = await pageById(db.selectFrom('partners').selectAll(), page).execute();
  return rows.map(toPartner);
}

export async function listGyms(db: Db, filter: { partnerId?: number }, page: PageRequest): Promise<Gym[]> {
  let query = db.selectFrom('gyms').selectAll();
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  const rows = await pageById(query, page).execute();
  return rows.map(toGym);
}
