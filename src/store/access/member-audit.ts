import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/**
 * The audit entries about one member, as one relation of the audit log's columns: entries naming the member, its
 * custom codes (`<gym>:<member>`, at any gym) and its visits (a reversal names the visit), read through the
 * index of named entries; and the entries of its check-ins, which that index leaves out (see migration 0017):
 * each was written in the decision that created or cancelled the check-in, so its `at` is the check-in's
 * created_at or cancelled_at, and the `at` index finds it.
 */
export function memberAuditEntries(db: Db, platformId: string) {
  // The term the partial index is declared with, written the same way so that both planners may use it.
  const named = (entity: string) =>
    db
      .selectFrom('audit_log')
      .selectAll()
      .where(sql<boolean>`entity <> 'checkin'`)
      .where('entity', '=', entity);
  const memberCheckins = db.selectFrom('checkins').select('id').where('platform_id', '=', platformId);
  const member = named('member').where('entity_id', '=', platformId);
  const visits = named('transaction').where(
    'entity_id',
    'in',
    db
      .selectFrom('transactions')
      .select(sql<string>`cast(id as text)`.as('entity_id'))
      .where('checkin_id', 'in', memberCheckins),
  );
  const codes = named('custom-code').where(
    'entity_id',
    'in',
    db.selectFrom('gyms').select(sql<string>`cast(id as text) || ':' || ${platformId}`.as('entity_id')),
  );
  const checkinEntries = (action: 'create' | 'cancel', at: 'c.created_at' | 'c.cancelled_at') =>
    db
      .selectFrom('checkins as c')
      .innerJoin('audit_log as a', (join) =>
        join
          .onRef('a.at', '=', at)
          .on('a.entity', '=', 'checkin')
          .on('a.action', '=', action)
          .on('a.entity_id', '=', sql<string>`cast(c.id as text)`),
      )
      .selectAll('a')
      .where('c.platform_id', '=', platformId);
  return member
    .unionAll(visits)
    .unionAll(codes)
    .unionAll(checkinEntries('create', 'c.created_at'))
    .unionAll(checkinEntries('cancel', 'c.cancelled_at'));
}
