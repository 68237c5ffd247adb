import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/**
 * Check-ins with the product each is for and the gym it was made at (so its partner): what the desk's waiting
 * list, a validation's read and a plan's usage all start from.
 */
export function checkinsAtGyms(db: Kysely<Database>) {
  return db
    .selectFrom('checkins')
    .innerJoin('products', 'products.id', 'checkins.product_id')
    .innerJoin('gyms', 'gyms.id', 'checkins.gym_id');
}
