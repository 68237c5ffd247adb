import type { Kysely } from 'kysely';
import type { DeliverySettings } from '../../domain/delivery-settings.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

export interface ProcessSettings {
  readonly processId: string;
  readonly fingerprint: string;
  readonly settings: DeliverySettings;
}

/** Records a starting process's delivery settings. */
export async function registerProcessSettings(db: Db, process: ProcessSettings, now: number): Promise<void> {
  await db
    .insertInto('process_settings')
    .values({
      process_id: process.processId,
      fingerprint: process.fingerprint,
      settings: JSON.stringify(process.settings),
      started_at: now,
      seen_at: now,
    })
    .execute();
}

/** The other processes seen since `since`; rows of processes gone longer than `before` are removed first. */
export async function otherLiveProcesses(
  db: Db,
  processId: string,
  since: number,
  before: number,
): Promise<ProcessSettings[]> {
  await db.deleteFrom('process_settings').where('seen_at', '<', before).execute();
  const rows = await db
    .selectFrom('process_settings')
    .select(['process_id', 'fingerprint', 'settings'])
    .where('process_id', '!=', processId)
    .where('seen_at', '>=', since)
    .orderBy('started_at')
    .execute();
  return rows.map((row) => ({
    processId: row.process_id,
    fingerprint: row.fingerprint,
    settings: JSON.parse(row.settings) as DeliverySettings,
  }));
}

/** The process is still running. */
export async function touchProcessSettings(db: Db, processId: string, now: number): Promise<void> {
  await db
    .updateTable('process_settings')
    .set({ seen_at: now })
    .where('process_id', '=', processId)
    .execute();
}

/** The process stops: its settings no longer count. */
export async function removeProcessSettings(db: Db, processId: string): Promise<void> {
  await db.deleteFrom('process_settings').where('process_id', '=', processId).execute();
}
