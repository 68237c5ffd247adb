import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** The ids of sandbox partners, as a subquery: what keeps their rows apart from the live network's. */
export function sandboxPartnerIds(db: Kysely<Database>) {
  return db.selectFrom('partners').select('partners.id').where('partners.sandbox', '=', 1);
}

/** The ids of sandbox partners' gyms, as a subquery. */
export function sandboxGymIds(db: Kysely<Database>) {
  return db.selectFrom('gyms').select('gyms.id').where('gyms.partner_id', 'in', sandboxPartnerIds(db));
}

/** The ids of sandbox partners, read: an export marks each of its rows from them. */
export async function readSandboxPartnerIds(db: Kysely<Database>): Promise<Set<number>> {
  return new Set((await sandboxPartnerIds(db).execute()).map((row) => Number(row.id)));
}
