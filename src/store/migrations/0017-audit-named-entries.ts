import { sql, type Kysely } from 'kysely';

/**
 * A member's audit entries are found by what they name (`GET /admin/v1/audit?platform_id=`): a member, a custom
 * code (`<gym>:<member>`), a reversed visit. Check-in entries are left out of the index: they are the only audit
 * rows the hot path writes (one per check-in created or cancelled), so that path pays nothing for it; they are
 * found through the member's check-ins instead, at the instant each was created or cancelled (the audit log's
 * `at` index). The rows the index holds come from operator actions, the partner's custom-code endpoints and
 * refused validations that carried a code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('audit_log_named_entries')
    .on('audit_log')
    .columns(['entity', 'entity_id'])
    .where(sql<boolean>`entity <> 'checkin'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_named_entries').execute();
}
