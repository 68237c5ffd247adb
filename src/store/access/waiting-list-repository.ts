import { sql, type Kysely } from 'kysely';
import { literal, waitingAt } from '../changes/rule-sql.js';
import { memberFromColumn, type MemberDetails } from '../../domain/member-details.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';
import { checkinsAtGyms } from './checkins-at-gyms.js';

type Db = Kysely<Database>;

/** A member who checked in at a gym and has not been validated yet, with the product the check-in is for. */
export interface WaitingCheckin {
  readonly id: number;
  readonly platformId: string;
  readonly productId: number;
  readonly productDescription: string;
  readonly checkedInAt: number;
  readonly expiresAt: number;
  /** What the member app sent of the member, for the desk to greet them by name; none when it sent nothing. */
  readonly member: MemberDetails | undefined;
}

/** A gym's pending check-ins that have not expired at `now`, in id order, up to limit + 1. */
export async function listWaitingCheckins(
  db: Db,
  gymId: number,
  now: number,
  page: PageRequest,
): Promise<WaitingCheckin[]> {
  const rows = await checkinsAtGyms(db)
    .select([
      'checkins.id',
      'checkins.platform_id',
      'checkins.product_id',
      'products.description',
      'checkins.checked_in_at',
      'checkins.expires_at',
      'checkins.member',
    ])
    .where('checkins.gym_id', '=', gymId)
    .where(sql.raw<boolean>(waitingAt('checkins', literal(now))))
    .where('checkins.id', '>', page.afterId)
    .orderBy('checkins.id')
    .limit(page.limit + 1)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    platformId: row.platform_id,
    productId: row.product_id,
    productDescription: row.description,
    checkedInAt: row.checked_in_at,
    expiresAt: row.expires_at,
    member: memberFromColumn(row.member),
  }));
}
