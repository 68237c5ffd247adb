/**
 * The rules the store's SQL repeats from the domain, each written here once, as text every write path and
 * listing builds from (the query builder through `sql.raw`, SQLite's prepared statements, PostgreSQL's batch).
 * `c` is the alias of the checkins table; the other arguments are SQL: a placeholder, a column or a literal.
 */

/**
 * A check-in still waiting at `now`: pending and not expired. Expiry is src/domain/checkin-condition.ts's
 * (expired once now ≥ expires_at).
 */
export const waitingAt = (c: string, now: string): string =>
  `(${c}.status = 'pending' and ${c}.expires_at > ${now})`;

/** A check-in expired at `now`: pending, and now ≥ expires_at. */
export const expiredAt = (c: string, now: string): string =>
  `(${c}.status = 'pending' and ${c}.expires_at <= ${now})`;

/** The member's latest check-in first: greatest checked_in_at, ties broken by creation order. */
export const latestFirst = (c: string): string => `${c}.checked_in_at desc, ${c}.id desc`;

/**
 * The validations the daily visit limit counts (src/domain/decisions/checkin.ts): validated_at in
 * [since, until).
 */
export const validatedBetween = (c: string, since: string, until: string): string =>
  `(${c}.status = 'validated' and ${c}.validated_at >= ${since} and ${c}.validated_at < ${until})`;

/** A number as an SQL literal, for the query builder's use of the rules above. */
export const literal = (value: number): string => {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
};

/**
 * A status change stamps its time in the target status's column, and is guarded by the status it expects
 * (`where status = from`): a change that finds another status misses.
 */
export const STAMPED_AT = { validated: 'validated_at', cancelled: 'cancelled_at' } as const;

/**
 * The writes that name the state they expect (a status, an existing code): one that misses means the decision
 * was made from a state that has changed since, and the change is rolled back and decided again
 * (StaleDecisionError). The batched paths check these; the query builder too, and reads a code insert that finds
 * a code as one more (on the batched paths the single writer or the members' locks rule that out, and the unique
 * key would refuse it).
 */
export const GUARDED_WRITES = ['checkin-status', 'update-code', 'delete-code'] as const;
export type GuardedWrite = (typeof GUARDED_WRITES)[number];
