import type { NewAuditRow, NewCheckinRow, NewEventRow, NewTransactionRow } from './rows.js';

/**
 * The columns of the new rows every write path inserts (rows.ts builds them), listed once: SQLite's prepared
 * inserts and PostgreSQL's batch name them from here.
 */

/** A column's type, as PostgreSQL's batch reads its json rows (SQLite stores the same values). */
type SqlType = 'bigint' | 'text';
/** Every column of a kind of new row, once, in the order each statement lists them: a missing one is a type error. */
type Columns<R> = { readonly [C in keyof R]: SqlType };

const CHECKIN_COLUMNS: Columns<NewCheckinRow> = {
  id: 'bigint',
  platform_id: 'text',
  gym_id: 'bigint',
  product_id: 'bigint',
  status: 'text',
  checked_in_at: 'bigint',
  expires_at: 'bigint',
  created_at: 'bigint',
  member: 'text',
  plan_id: 'bigint',
  plan_version: 'bigint',
};
const TRANSACTION_COLUMNS: Columns<NewTransactionRow> = {
  id: 'bigint',
  checkin_id: 'bigint',
  partner_id: 'bigint',
  gym_id: 'bigint',
  product_id: 'bigint',
  platform_id: 'text',
  payout_cents: 'bigint',
  currency: 'text',
  validated_at: 'bigint',
  list_cents: 'bigint',
  pricing_rule: 'text',
  rule_version: 'bigint',
};
const EVENT_COLUMNS: Columns<NewEventRow> = {
  id: 'text',
  type: 'text',
  occurred_at: 'bigint',
  partner_id: 'bigint',
  gym_id: 'bigint',
  data: 'text',
};
const AUDIT_COLUMNS: Columns<NewAuditRow> = {
  actor: 'text',
  actor_id: 'bigint',
  action: 'text',
  entity: 'text',
  entity_id: 'text',
  at: 'bigint',
};

/** Each table the write paths insert into, with its new row's columns. */
export const NEW_ROWS = {
  checkins: CHECKIN_COLUMNS,
  transactions: TRANSACTION_COLUMNS,
  events: EVENT_COLUMNS,
  audit_log: AUDIT_COLUMNS,
} as const;

export type NewRowTable = keyof typeof NEW_ROWS;

/**
 * `insert into <table> (…) values (?, …)`, and how a row built in rows.ts becomes its parameters, in the same
 * order. Positional: better-sqlite3 binds them faster than named ones (about 0.5 µs an insert).
 */
export function positionalInsert<T extends NewRowTable>(table: T) {
  const names = Object.keys(NEW_ROWS[table]) as (keyof (typeof NEW_ROWS)[T])[];
  return {
    text: `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`,
    values: (row: { readonly [C in keyof (typeof NEW_ROWS)[T]]: unknown }) => names.map((name) => row[name]),
  };
}
