import type { Kysely } from 'kysely';
import type { CancelledSpelling, CompatibilityProfile } from '../../domain/compatibility.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** The columns a profile is read from, wherever a partner row is joined. */
export const COMPATIBILITY_COLUMNS = ['partners.cancelled_spelling', 'partners.gym_from_key'] as const;

export function toCompatibility(row: {
  cancelled_spelling: string;
  gym_from_key: number | string;
}): CompatibilityProfile {
  return {
    cancelledSpelling: row.cancelled_spelling as CancelledSpelling,
    gymFromKey: Number(row.gym_from_key) === 1,
  };
}

/** A partner's profile, or undefined when there is no such partner. */
export async function findCompatibility(
  db: Db,
  partnerId: number,
): Promise<CompatibilityProfile | undefined> {
  const row = await db
    .selectFrom('partners')
    .select(COMPATIBILITY_COLUMNS)
    .where('id', '=', partnerId)
    .executeTakeFirst();
  return row && toCompatibility(row);
}

/** Replaces a partner's profile; false when there is no such partner. */
export async function setCompatibility(
  db: Db,
  partnerId: number,
  profile: CompatibilityProfile,
): Promise<boolean> {
  const result = await db
    .updateTable('partners')
    .set({ cancelled_spelling: profile.cancelledSpelling, gym_from_key: profile.gymFromKey ? 1 : 0 })
    .where('id', '=', partnerId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
