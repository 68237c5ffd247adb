import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** The position the broker feed of a stream has published up to (0: nothing yet, the whole log is to publish). */
export async function readFeedCursor(db: Db, stream: string): Promise<number> {
  const row = await db
    .selectFrom('nats_feed')
    .select('position')
    .where('stream', '=', stream)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}

/** Sets the feed's cursor where it stands `beyond` the position (`<`: behind it, `>`: past it), or inserts it. */
async function placeCursor(db: Db, stream: string, position: number, now: number, beyond: '<' | '>') {
  await db
    .insertInto('nats_feed')
    .values({ stream, position, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('stream')
        .doUpdateSet({ position, updated_at: now })
        .where('nats_feed.position', beyond, position),
    )
    .execute();
}

/** Moves the feed's cursor forward (never back: two processes' saves may cross). */
export async function saveFeedCursor(db: Db, stream: string, position: number, now: number): Promise<void> {
  await placeCursor(db, stream, position, now, '<');
}

/** Moves the feed's cursor back to `position` (`gatehouse nats replay`); a cursor already there or before stays. */
export async function rewindFeedCursor(db: Db, stream: string, position: number, now: number): Promise<void> {
  await placeCursor(db, stream, position, now, '>');
}
