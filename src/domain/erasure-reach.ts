/** Where copies of an erased member's data may still be, beyond the database's own tables. */
export interface ErasureSetting {
  readonly dialect: 'sqlite' | 'postgres';
  /** Whether SQLite's write-ahead log was emptied after the erasure (always false on PostgreSQL). */
  readonly logEmptied: boolean;
  /** The JetStream stream the event log is published to, when the NATS feed is on. */
  readonly natsStream?: string | undefined;
  readonly eventRetentionDays: number;
}

/**
 * The copies an erasure cannot reach, in words for the operator who asked for it: what was already sent, what
 * another system keeps, and until when. The README's "Members' data" says the same.
 */
export function copiesOutOfReach(setting: ErasureSetting): string[] {
  const copies = ['payloads already delivered to webhook receivers and event streams'];
  if (setting.natsStream !== undefined) {
    copies.push(
      `messages already published to the NATS stream ${setting.natsStream}, until they are ` +
        `${setting.eventRetentionDays} days old (GATEHOUSE_EVENT_RETENTION_DAYS)`,
    );
  }
  if (setting.dialect === 'postgres') {
    copies.push(
      "PostgreSQL's write-ahead log, archives, replicas and backups, kept as their operator keeps them",
    );
  } else if (!setting.logEmptied) {
    copies.push("SQLite's write-ahead log, until its next checkpoint: another process was reading it");
  }
  copies.push('backups made before the erasure');
  return copies;
}
