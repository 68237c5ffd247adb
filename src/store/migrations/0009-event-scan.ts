import type { Kysely } from 'kysely';

/**
 * The event log keeps no index for a gym's events: every change appends an event, and that index cost each one a
 * page of its own (a different leaf for each gym) on every commit. Filtered reads scan the log by position within
 * a bound instead (src/store/events/event-repository.ts). Dropping an index never breaks an older process: one of the
 * previous release still running during an upgrade lists a gym's events by reading the log in order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_gym_position').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('events_gym_position').on('events').columns(['gym_id', 'position']).execute();
}
