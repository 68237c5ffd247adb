import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { OPERATOR } from '../../src/domain/audit.js';
import type { BatchedChangeKind, ChangeRequest } from '../../src/domain/changes.js';
import { StaleDecisionError } from '../../src/domain/writes.js';
import type { BatchItem } from '../../src/store/dialects/postgres/postgres-batch-item.js';
import { runBatch } from '../../src/store/dialects/postgres/postgres-change-batch.js';
import { arrangePartner, type Arranged } from '../fixtures/factories.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { startTestApp, type TestApp } from '../fixtures/test-app.js';

/**
 * The PostgreSQL batch hands its values to the server encoded (JSON text, array literals): whatever a member's
 * strings hold, the batch itself must carry them — not its fallback, which would hide a broken encoding — and store
 * exactly what the query builder stores.
 */
const HOSTILE = [
  `it's "quoted" \\ back\\slash \\"`,
  `{"transaction_id":null} "transaction_id":null`,
  `$q$ $$ '); drop table events; -- é 😀 \u2028 \u00a0`,
  `lone \ud800 surrogate \udfff and \\ud800 written`,
];

/** bigint columns read as numbers, as the store's pool reads them. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** What the driver stores for a JavaScript string: its UTF-8 encoding, a lone surrogate as U+FFFD. */
const asStored = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

describe.skipIf(!pgAvailable)('PostgreSQL batches carry hostile strings', () => {
  let t: TestApp;
  let a: Arranged;
  let pool: pg.Pool;
  beforeAll(async () => {
    t = await startTestApp({ dialect: 'postgres' });
    a = await arrangePartner(t.services);
    pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2, types });
  });
  afterAll(async () => {
    await pool.end();
    await t.close();
  });

  async function batch(items: BatchItem[]) {
    const result = await runBatch(pool, items, () => false);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) throw result.error;
    for (const own of result.results) expect(own).toMatchObject({ ok: true });
    return result.results.map((own) => (own.ok ? own.outcome : undefined));
  }
  const item = <K extends BatchedChangeKind>(
    kind: K,
    request: ChangeRequest<K>,
    platformId: string,
  ): BatchItem => ({
    kind,
    request,
    member: { gymId: a.gym.id, platformId },
  });

  /** A check-in creation for the arranged gym, made now. */
  const creation = (
    platformId: string,
    now: number,
    extra: Partial<ChangeRequest<'create-checkin'>> = {},
  ): BatchItem =>
    item(
      'create-checkin',
      {
        platformId,
        gymId: a.gym.id,
        productId: a.product.id,
        checkedInAt: now,
        now,
        actor: OPERATOR,
        ttlMs: 3_600_000,
        dailyVisitLimit: 10,
        plans: true,
        timezone: 'UTC',
        ...extra,
      },
      platformId,
    );

  test('when every kind of change carries quotes, backslashes, unicode and JSON-like text, then the rows hold them exactly', async () => {
    const now = t.clock.now();
    const ids = HOSTILE.map((text, i) => `${text} #${i}`);
    const member = (text: string) => ({ first_name: text, last_name: `"${text}"`, email: 'a@b.c' });
    const created = (await batch(
      ids.map((platformId, i) => creation(platformId, now, { member: member(HOSTILE[i] ?? '') })),
    )) as { id: number }[];
    await batch(
      ids.map((platformId, i) =>
        item(
          'validate',
          { gymId: a.gym.id, platformId, customCode: HOSTILE[i], now, actor: OPERATOR },
          platformId,
        ),
      ),
    );
    await batch(
      ids.map((platformId, i) =>
        i % 2 === 0
          ? item(
              'update-code',
              { gymId: a.gym.id, platformId, code: `${HOSTILE[i]}!`, now, actor: OPERATOR },
              platformId,
            )
          : item('delete-code', { gymId: a.gym.id, platformId, now, actor: OPERATOR }, platformId),
      ),
    );

    for (const [i, platformId] of ids.entries()) {
      const text = HOSTILE[i] ?? '';
      const checkinId = created[i]?.id ?? 0;
      const checkin = await t.store.db
        .selectFrom('checkins')
        .selectAll()
        .where('id', '=', checkinId)
        .executeTakeFirstOrThrow();
      expect(checkin.platform_id).toBe(asStored(platformId));
      expect(checkin.status).toBe('validated');
      expect(JSON.parse(checkin.member ?? 'null')).toEqual(JSON.parse(JSON.stringify(member(text))));
      const code = await t.store.db
        .selectFrom('custom_codes')
        .select('code')
        .where('gym_id', '=', a.gym.id)
        .where('platform_id', '=', asStored(platformId))
        .executeTakeFirst();
      expect(code?.code).toBe(i % 2 === 0 ? asStored(`${text}!`) : undefined);
      const transaction = await t.store.db
        .selectFrom('transactions')
        .select('id')
        .where('checkin_id', '=', checkinId)
        .executeTakeFirstOrThrow();

      const events = (
        await t.store.db.selectFrom('events').select(['type', 'data']).orderBy('position').execute()
      )
        .map((row) => ({
          type: row.type,
          text: row.data ?? '',
          data: JSON.parse(row.data ?? '{}') as Record<string, unknown>,
        }))
        .filter((event) => event.data.checkin_id === checkinId);
      expect(events.map((event) => event.type)).toEqual(['checkin.created', 'checkin.validated']);
      for (const event of events) {
        // Byte for byte what JSON.stringify wrote: JSON text is stored as given, never re-encoded.
        expect(event.text).toBe(JSON.stringify(event.data));
        expect(event.data.platform_id).toBe(platformId);
        expect(event.data.member).toEqual(member(text));
      }
      expect(events[1]?.data.transaction_id).toBe(transaction.id);
    }
  });

  test('when a guarded write misses, then the batch fails as stale and keeps nothing, though COMMIT was sent behind it', async () => {
    const now = t.clock.now();
    const [missed, other] = ['guard-missed', 'guard-other'];
    const created = (await batch([missed, other].map((platformId) => creation(platformId, now)))) as {
      id: number;
    }[];
    // The status change of one check-in finds no row to change, as if another writer had moved it first.
    await sql
      .raw(
        `create function skip_update() returns trigger language plpgsql as $$ begin return null; end $$;
         create trigger skip_update before update on checkins for each row
           when (old.platform_id = '${missed}') execute function skip_update()`,
      )
      .execute(t.store.db);
    try {
      const result = await runBatch(
        pool,
        [missed, other].map((platformId) =>
          item(
            'validate',
            { gymId: a.gym.id, platformId, customCode: 'KEPT?', now, actor: OPERATOR },
            platformId,
          ),
        ),
        () => false,
      );
      expect(result).toMatchObject({ ok: false, retry: true });
      expect(result.ok ? undefined : result.error).toBeInstanceOf(StaleDecisionError);
    } finally {
      await sql.raw('drop trigger skip_update on checkins; drop function skip_update()').execute(t.store.db);
    }
    const ids = created.map((checkin) => checkin.id);
    const statuses = await t.store.db
      .selectFrom('checkins')
      .select('status')
      .where('id', 'in', ids)
      .execute();
    expect(statuses.map((row) => row.status)).toEqual(['pending', 'pending']);
    const kept = await t.store.db
      .selectFrom('transactions')
      .select('id')
      .where('checkin_id', 'in', ids)
      .execute();
    expect(kept).toEqual([]);
    const validatedEvents = (
      await t.store.db.selectFrom('events').select('data').where('type', '=', 'checkin.validated').execute()
    ).filter((row) => ids.some((id) => row.data?.includes(`"checkin_id":${id},`)));
    expect(validatedEvents).toEqual([]);
    const codes = await t.store.db
      .selectFrom('custom_codes')
      .select('code')
      .where('platform_id', 'in', [missed, other])
      .execute();
    expect(codes).toEqual([]);
  });
});
