import { sandboxGymIds } from '../catalog/sandbox-partners.js';
import { sql, type Kysely } from 'kysely';
import type { CheckinStatus } from '../../domain/checkin-condition.js';
import type { Checkin } from '../../domain/entities.js';
import { checkinRow, toCheckin } from '../changes/rows.js';
import { STAMPED_AT, expiredAt, literal, validatedBetween, waitingAt } from '../changes/rule-sql.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';
import { pageById } from '../paging.js';

type Db = Kysely<Database>;

/** Inserts a check-in with the id the store reserved for it. */
export async function insertCheckinRow(db: Db, checkin: Parameters<typeof checkinRow>[0]): Promise<void> {
  await db.insertInto('checkins').values(checkinRow(checkin)).execute();
}

export async function findCheckin(db: Db, id: number): Promise<Checkin | undefined> {
  const row = await db.selectFrom('checkins').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toCheckin(row);
}

/** Moves a check-in from one status to another; false when it was not in the `from` status. */
export async function setCheckinStatus(
  db: Db,
  change: { checkinId: number; from: CheckinStatus; to: 'validated' | 'cancelled'; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('checkins')
    .set({ status: change.to, [STAMPED_AT[change.to]]: change.at })
    .where('id', '=', change.checkinId)
    .where('status', '=', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** When the member's validations at a gym were made, those with validated_at in [start, end). */
export async function validationsBetween(
  db: Db,
  member: { gymId: number; platformId: string },
  start: number,
  end: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('checkins')
    .select('validated_at')
    .where('gym_id', '=', member.gymId)
    .where('platform_id', '=', member.platformId)
    .where(sql.raw<boolean>(validatedBetween('checkins', literal(start), literal(end))))
    .execute();
  return rows.map((row) => Number(row.validated_at));
}

export interface CheckinFilter {
  readonly platformId?: string;
  readonly gymId?: number;
  /** `expired` and `pending` are told apart by time: a pending check-in past expires_at is expired. */
  readonly status?: CheckinStatus | 'expired';
  /** true: sandbox partners' check-ins only; false: the live network's only (a member's history). */
  readonly sandbox?: boolean;
}

export async function listCheckins(
  db: Db,
  filter: CheckinFilter,
  page: PageRequest,
  now: number,
): Promise<Checkin[]> {
  let query = db.selectFrom('checkins').selectAll();
  if (filter.platformId !== undefined) query = query.where('platform_id', '=', filter.platformId);
  if (filter.gymId !== undefined) query = query.where('gym_id', '=', filter.gymId);
  if (filter.sandbox !== undefined)
    query = query.where('gym_id', filter.sandbox ? 'in' : 'not in', sandboxGymIds(db));
  if (filter.status === 'expired') query = query.where(sql.raw<boolean>(expiredAt('checkins', literal(now))));
  else if (filter.status === 'pending')
    query = query.where(sql.raw<boolean>(waitingAt('checkins', literal(now))));
  else if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const rows = await pageById(query, page).execute();
  return rows.map(toCheckin);
}
