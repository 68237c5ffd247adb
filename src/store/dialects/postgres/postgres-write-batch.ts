import pg from 'pg';
import { StaleDecisionError, type Write } from '../../../domain/writes.js';
import { NEW_ROWS } from '../../changes/row-columns.js';
import { auditRow, checkinRow, eventRow, transactionRow } from '../../changes/rows.js';
import { GUARDED_WRITES, STAMPED_AT, type GuardedWrite } from '../../changes/rule-sql.js';
import { jsonRows } from './postgres-json-rows.js';
import type { Step } from './postgres-pipeline.js';
import { counterParameter } from './postgres-batch-counts.js';
import { ADD_WHERE_COUNTED, COUNTER_COLUMNS, markOf } from '../../plans/payout-counter-repository.js';

/** How the statement's refusal starts when a guarded write missed. */
const STALE = 'gatehouse: the state changed under a decision: ';

/**
 * A CTE `<name> as (insert into <table> (…) select … from` the json parameter's rows `returning 1)`, in the columns
 * the rows are built with.
 */
function insertRows(name: string, table: keyof typeof NEW_ROWS, parameter: string, alias: string) {
  const columns = NEW_ROWS[table];
  const names = Object.keys(columns).join(', ');
  return `${name} as (
  insert into ${table} (${names})
  select ${names} from json_to_recordset(${parameter}::json) as ${alias}(${typed(columns)})
  returning 1
)`;
}

type Columns = Readonly<Record<string, string>>;
const typed = (columns: Columns) =>
  Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
const EVENTS = Object.keys(NEW_ROWS.events).join(', ');

/** Each target status stamps its own column; the others keep theirs. */
const STAMPS = Object.entries(STAMPED_AT)
  .map(([to, column]) => `${column} = case when s.to_status = '${to}' then s.at else c.${column} end`)
  .join(',\n      ');

/** Each guarded write's rows (its CTE) and requests (its parameter): fewer rows than requests is a miss. */
const GUARDS: { readonly [K in GuardedWrite]: readonly [cte: string, parameter: string] } = {
  'checkin-status': ['status', '$1'],
  'update-code': ['updated_codes', '$5'],
  'delete-code': ['deleted_codes', '$6'],
};
const MISSES = GUARDED_WRITES.map((kind) => {
  const [cte, parameter] = GUARDS[kind];
  return `when (select count(*) from ${cte}) <> json_array_length(${parameter}::json) then '${kind}'`;
}).join('\n    ');

/**
 * Every write of a batch's decisions but its payout counters (countersStep) in one statement: one data-modifying
 * CTE per kind of write, each fed its rows as one json parameter (postgres-json-rows.ts). It matches the
 * query-builder applier (src/store/changes/write-applier.ts):
 * the same guarded status changes and code updates; ledger rows and events take their places from the
 * transaction's id (src/store/commit-horizon.ts), events in the order the decisions wrote them. It fails as a
 * whole when a guarded write missed, so that the COMMIT pipelined behind it never runs.
 */
const WRITE_BATCH = `
with status as (
  update checkins c
  set status = s.to_status, ${STAMPS},
      counted_month = coalesce(s.counted_month, c.counted_month),
      counted_scope = coalesce(s.counted_scope, c.counted_scope)
  from json_to_recordset($1::json)
    as s(id bigint, from_status text, to_status text, at bigint, counted_month text, counted_scope bigint)
  where c.id = s.id and c.status = s.from_status
  returning 1
), ${insertRows('new_checkins', 'checkins', '$2', 'n')},
${insertRows('new_transactions', 'transactions', '$3', 't')},
new_codes as (
  insert into custom_codes (gym_id, platform_id, code, created_at, updated_at)
  select x.gym_id, x.platform_id, x.code, x.at, x.at
  from json_to_recordset($4::json) as x(gym_id bigint, platform_id text, code text, at bigint)
  returning 1
), updated_codes as (
  update custom_codes cc set code = u.code, updated_at = u.at
  from json_to_recordset($5::json) as u(gym_id bigint, platform_id text, code text, at bigint)
  where cc.gym_id = u.gym_id and cc.platform_id = u.platform_id
  returning 1
), deleted_codes as (
  delete from custom_codes cc
  using json_to_recordset($6::json) as d(gym_id bigint, platform_id text)
  where cc.gym_id = d.gym_id and cc.platform_id = d.platform_id
  returning 1
), ${insertRows('audited', 'audit_log', '$7', 'a')},
logged as (
  insert into events (${EVENTS})
  select ${EVENTS}
  from rows from (json_to_recordset($8::json) as (${typed(NEW_ROWS.events)})) with ordinality as e(${EVENTS}, ord)
  order by e.ord
  returning 1
), missed as (
  select case
    ${MISSES}
  end as kind
)
-- A guarded write that missed fails the statement (a cast the server refuses, naming the write's kind), so the
-- COMMIT sent behind it never runs and nothing of the batch is kept.
select case when kind is null then 'written' else ('${STALE}' || kind)::int::text end as written from missed`;

/**
 * The marks of the visits counted on their check-ins, by check-in: each is written with its check-in's status
 * change (a row is changed once per statement).
 */
function marksOf(writes: readonly Write[]) {
  const marks = new Map<number, NonNullable<ReturnType<typeof markOf>>>();
  for (const write of writes) {
    const mark = write.kind === 'count-visit' ? markOf(write) : undefined;
    if (mark !== undefined) marks.set(mark.id, mark);
  }
  return marks;
}

/** The statement's parameters: the rows of each kind of write, keyed by the columns the statement reads. */
function parametersOf(writes: readonly Write[]): string[] {
  const marks = marksOf(writes);
  const status: object[] = [];
  const checkins: object[] = [];
  const transactions: object[] = [];
  const newCodes: object[] = [];
  const updatedCodes: object[] = [];
  const deletedCodes: object[] = [];
  const audit: object[] = [];
  const events: object[] = [];
  for (const write of writes) {
    switch (write.kind) {
      case 'checkin-status': {
        const mark = marks.get(write.checkinId);
        marks.delete(write.checkinId);
        status.push({
          id: write.checkinId,
          from_status: write.from,
          to_status: write.to,
          at: write.at,
          counted_month: mark?.counted_month ?? null,
          counted_scope: mark?.counted_scope ?? null,
        });
        break;
      }
      case 'insert-reversal':
        throw new Error('a reversal is carried out by the unit of work, never in a batch');
      case 'insert-checkin':
        checkins.push(checkinRow(write.checkin));
        break;
      case 'insert-transaction':
        transactions.push(transactionRow(write.transaction));
        break;
      case 'insert-code':
      case 'update-code':
        (write.kind === 'insert-code' ? newCodes : updatedCodes).push({
          gym_id: write.gymId,
          platform_id: write.platformId,
          code: write.code,
          at: write.at,
        });
        break;
      case 'delete-code':
        deletedCodes.push({ gym_id: write.gymId, platform_id: write.platformId });
        break;
      case 'audit':
        audit.push(auditRow(write.entry, write.at));
        break;
      case 'event':
        events.push(eventRow(write.event));
        break;
      case 'count-visit':
        break;
    }
  }
  if (marks.size > 0) throw new Error('a visit was counted on a check-in the batch did not validate');
  // In the order of the statement's parameters, $1 to $8.
  return [status, checkins, transactions, newCodes, updatedCodes, deletedCodes, audit, events].map(jsonRows);
}

/**
 * The batch's writes as one pipelined statement (postgres-pipeline.ts), its counters apart (countersStep); nothing
 * when there is nothing else to write.
 */
export function writeStep(writes: readonly Write[]): Step | undefined {
  if (!writes.some((write) => write.kind !== 'count-visit')) return undefined;
  return { name: 'gatehouse_batch_write', text: WRITE_BATCH, values: parametersOf(writes) };
}

/**
 * The batch's payout counters, its last statement before COMMIT: a partner's paid total is one row that every
 * priced visit of its month adds to, and its row lock is held from this statement to the commit; the batch in
 * flight beside this one waits for it only that long.
 */
const COUNTED = `
insert into payout_counters (${COUNTER_COLUMNS})
select ${COUNTER_COLUMNS}
from rows from (json_to_recordset($1::json)
  as (partner_id bigint, month text, gym_id bigint, platform_id text, visits integer, paid_cents bigint))
  with ordinality as x(${COUNTER_COLUMNS}, ord)
order by x.ord
${ADD_WHERE_COUNTED}`;

/** The batch's counter rows as one pipelined statement; nothing when it counted no visit. */
export function countersStep(writes: readonly Write[]): Step | undefined {
  const counters = counterParameter(writes);
  if (counters.length === 0) return undefined;
  return { name: 'gatehouse_batch_counted', text: COUNTED, values: [jsonRows(counters)] };
}

/** The server's refusal of a guarded write that missed, as the unit of work reports it; anything else as it is. */
export function asStaleDecision(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError) || error.code !== '22P02') return error;
  const kind = GUARDED_WRITES.find((candidate) => error.message.includes(`${STALE}${candidate}"`));
  return kind === undefined ? error : new StaleDecisionError(kind);
}
