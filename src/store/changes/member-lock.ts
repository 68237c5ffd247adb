/**
 * Every change to one member·gym — creating, validating and cancelling its check-ins, writing its custom code —
 * holds this lock while it reads and writes, so each decision is made from the state it changes (and the daily
 * visit limit holds under races). SQLite's single writer holds it implicitly; PostgreSQL takes an advisory lock.
 */
export function memberLockKey(member: { gymId: number; platformId: string }): string {
  return `member:${member.gymId}:${member.platformId}`;
}

/** The member's lock across every gym: held by each of their changes, and by their erasure alone. */
export function memberWideLockKey(platformId: string): string {
  return `member:${platformId}`;
}

/**
 * The locks one change of a member·gym takes, in the one order every path takes them (code-unit order, which is
 * PostgreSQL's `collate "C"`), so no two transactions wait on each other in a cycle. The member-wide lock makes an
 * erasure wait for the member's changes in flight, and theirs wait for it: none leaves the member's id behind.
 */
export function memberLockKeys(member: { gymId: number; platformId: string }): readonly string[] {
  return [memberLockKey(member), memberWideLockKey(member.platformId)].sort();
}
