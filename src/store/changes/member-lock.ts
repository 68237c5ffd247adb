/**
 * Every change to one member·gym — creating, validating and cancelling its check-ins, writing its custom code —
 * holds this lock while it reads and writes, so each decision is made from the state it changes (and the daily
 * visit limit holds under races). SQLite's single writer holds it implicitly; PostgreSQL takes an advisory lock.
 */
export function memberLockKey(member: { gymId: number; platformId: string }): string {
  return `member:${member.gymId}:${member.platformId}`;
}
