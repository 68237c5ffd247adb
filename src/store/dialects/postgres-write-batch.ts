import type pg from 'pg';
import { actorName } from '../../domain/audit.js';
import { newEventId } from '../../domain/events.js';
import { memberColumn } from '../../domain/member-details.js';
import { StaleDecisionError, type Write } from '../../domain/writes.js';

/**
 * Every write of a batch's decisions in one statement: one data-modifying CTE per kind of write, each fed its rows
 * as parallel arrays. It matches the query-builder applier (src/store/write-applier.ts): the same guarded status
 * changes and code updates; ledger rows and events take their places from the transaction's id
 * (src/store/commit-horizon.ts).
 */
const WRITE_BATCH = `
with status as (
  update checkins c
  set status = s.to_status,
      validated_at = case when s.to_status = 'validated' then s.at else c.validated_at end,
      cancelled_at = case when s.to_status = 'cancelled' then s.at else c.cancelled_at end
  from unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[]) as s(id, from_status, to_status, at)
  where c.id = s.id and c.status = s.from_status
  returning 1
), new_checkins as (
  insert into checkins
    (id, platform_id, gym_id, product_id, status, checked_in_at, expires_at, created_at, member)
  select n.id, n.platform_id, n.gym_id, n.product_id, 'pending', n.checked_in_at, n.expires_at, n.created_at,
         n.member
  from unnest($5::bigint[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[],
              $12::text[])
    as n(id, platform_id, gym_id, product_id, checked_in_at, expires_at, created_at, member)
  returning 1
), new_transactions as (
  insert into transactions
    (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
  select * from unnest($13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[], $17::text[],
                       $18::bigint[], $19::text[], $20::bigint[])
  returning id, checkin_id
), new_codes as (
  insert into custom_codes (gym_id, platform_id, code, created_at, updated_at)
  select x.gym_id, x.platform_id, x.code, x.at, x.at
  from unnest($21::bigint[], $22::text[], $23::text[], $24::bigint[]) as x(gym_id, platform_id, code, at)
  returning 1
), updated_codes as (
  update custom_codes cc set code = u.code, updated_at = u.at
  from unnest($25::bigint[], $26::text[], $27::text[], $28::bigint[]) as u(gym_id, platform_id, code, at)
  where cc.gym_id = u.gym_id and cc.platform_id = u.platform_id
  returning 1
), deleted_codes as (
  delete from custom_codes cc
  using unnest($29::bigint[], $30::text[]) as d(gym_id, platform_id)
  where cc.gym_id = d.gym_id and cc.platform_id = d.platform_id
  returning 1
), audited as (
  insert into audit_log (actor, action, entity, entity_id, at)
  select * from unnest($31::text[], $32::text[], $33::text[], $34::text[], $35::bigint[])
  returning 1
), logged as (
  insert into events (id, type, occurred_at, partner_id, gym_id, data)
  select e.id, e.type, e.occurred_at, e.partner_id, e.gym_id,
         -- The id the insert above gave the transaction the event names (its data holds null there until now).
         case when t.id is null then e.data
              else replace(e.data, '"transaction_id":null', '"transaction_id":' || t.id) end
  from unnest($36::text[], $37::text[], $38::bigint[], $39::bigint[], $40::bigint[], $41::text[], $42::bigint[])
    as e(id, type, occurred_at, partner_id, gym_id, data, transaction_of)
  left join new_transactions t on t.checkin_id = e.transaction_of
  returning 1
)
select (select count(*) from status)::int as status,
       (select count(*) from updated_codes)::int as updated_codes,
       (select count(*) from deleted_codes)::int as deleted_codes`;

type Column = (string | number | null)[];

/** The statement's parameters: one array per column of each kind of write. */
function columnsOf(writes: readonly Write[]): Column[] {
  const columns: Column[] = Array.from({ length: 42 }, () => []);
  const push = (from: number, ...values: (string | number | null)[]) =>
    values.forEach((value, i) => columns[from + i]?.push(value));
  for (const write of writes) {
    switch (write.kind) {
      case 'checkin-status':
        push(0, write.checkinId, write.from, write.to, write.at);
        break;
      case 'insert-reversal':
        throw new Error('a reversal is carried out by the unit of work, never in a batch');
      case 'insert-checkin': {
        const c = write.checkin;
        push(
          4,
          c.id,
          c.platformId,
          c.gymId,
          c.productId,
          c.checkedInAt,
          c.expiresAt,
          c.createdAt,
          memberColumn(c.member),
        );
        break;
      }
      case 'insert-transaction': {
        const t = write.transaction;
        push(
          12,
          t.checkinId,
          t.partnerId,
          t.gymId,
          t.productId,
          t.platformId,
          t.payoutCents,
          t.currency,
          t.validatedAt,
        );
        break;
      }
      case 'insert-code':
        push(20, write.gymId, write.platformId, write.code, write.at);
        break;
      case 'update-code':
        push(24, write.gymId, write.platformId, write.code, write.at);
        break;
      case 'delete-code':
        push(28, write.gymId, write.platformId);
        break;
      case 'audit': {
        const e = write.entry;
        push(30, actorName(e.actor), e.action, e.entity, String(e.entityId), write.at);
        break;
      }
      case 'event': {
        const e = write.event;
        const data = JSON.stringify(e.data);
        push(35, newEventId(), e.type, e.occurredAt, e.partnerId, e.gymId, data, write.transactionOf ?? null);
        break;
      }
    }
  }
  return columns;
}

interface Counts {
  readonly status: number;
  readonly updated_codes: number;
  readonly deleted_codes: number;
}

/** Carries out the writes inside the caller's transaction; throws StaleDecisionError when a guarded write missed. */
export async function writeBatch(client: pg.PoolClient, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  const count = (kind: Write['kind']) => writes.filter((write) => write.kind === kind).length;
  const { rows } = await client.query<Counts>({
    name: 'gatehouse_write_batch',
    text: WRITE_BATCH,
    values: columnsOf(writes),
  });
  const counts = rows[0];
  if (counts?.status !== count('checkin-status')) throw new StaleDecisionError('checkin-status');
  if (counts.updated_codes !== count('update-code')) throw new StaleDecisionError('update-code');
  if (counts.deleted_codes !== count('delete-code')) throw new StaleDecisionError('delete-code');
}
