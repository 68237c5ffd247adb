export type CheckinStatus = 'pending' | 'validated' | 'cancelled';

/** How validate sees a member's most recent check-in at a gym. */
export type CheckinCondition = 'valid' | 'notfound' | 'cancelled' | 'expired' | 'already-validated';

export interface CheckinState {
  readonly status: CheckinStatus;
  readonly expiresAt: number;
}

/** In this order: validated, then cancelled, then expired (now ≥ expires_at), else valid. */
export function classifyCheckin(checkin: CheckinState | undefined, now: number): CheckinCondition {
  if (checkin === undefined) return 'notfound';
  if (checkin.status === 'validated') return 'already-validated';
  if (checkin.status === 'cancelled') return 'cancelled';
  if (now >= checkin.expiresAt) return 'expired';
  return 'valid';
}

/** The status the operator sees: `expired` is derived from time, never stored. */
export function displayStatus(checkin: CheckinState, now: number): CheckinStatus | 'expired' {
  return checkin.status === 'pending' && now >= checkin.expiresAt ? 'expired' : checkin.status;
}

/** The custom code sent with validate is stored in every case but "not found" (a valid check-in included). */
export function upsertsCustomCode(condition: CheckinCondition): boolean {
  return condition !== 'notfound';
}
