import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, test } from 'vitest';
import {
  cliOn,
  expectSuccess,
  A_KEY_SECRET,
  AN_ISO_SECONDS,
  openPartnerApi,
  openStore,
  useTempDir,
  type PartnerApi,
} from '../../fixtures/processes/cli.js';
import { DATA_TABLES } from '../../fixtures/store-state.js';

/** Every table the migrations create. */
const TABLES = [...DATA_TABLES, 'audit_log'] as const;

const tempDir = useTempDir();

describe('gatehouse migrate', () => {
  test('on a fresh file (in a directory yet to be made): creates the schema, empty, and says where; again: a no-op that says so', async () => {
    const path = join(tempDir(), 'not', 'yet', 'there.db');
    const url = `sqlite:${path}`;
    const cli = cliOn(url);

    const first = await cli(['migrate']);

    expect(first).toEqual({ code: 0, stdout: `migrations applied to ${url}\n`, stderr: '' });
    expect(existsSync(path)).toBe(true);
    const store = openStore(url);
    try {
      expect(await store.isReady()).toBe(true);
      for (const table of TABLES)
        expect(await store.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        store.db,
      );
      expect(applied.rows.length).toBeGreaterThan(0);

      const again = await cli(['migrate']);

      expect(again).toEqual({ code: 0, stdout: `no pending migrations: ${url} is up to date\n`, stderr: '' });
      const reapplied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        store.db,
      );
      expect(reapplied.rows).toEqual(applied.rows);
    } finally {
      await store.close();
    }
  });
});

/** `curl -s -X POST <base>/access/v1/validate -H 'Authorization: Bearer <key>' -H 'X-Gym-Id: <id>' … -d '<json>'` */
const CURL_LINE =
  /^curl -s -X POST (http:\/\/[^ ]+)\/access\/v1\/validate -H 'Authorization: Bearer ([^' ]+)' -H 'X-Gym-Id: (\d+)' -H 'Content-Type: application\/json' -d '(\{[^']*\})'\n$/;

function parseCurlLine(stdout: string) {
  const match = CURL_LINE.exec(stdout);
  expect(match, stdout).not.toBeNull();
  const [, baseUrl, key, gymId, body] = match as unknown as [string, string, string, string, string];
  return { baseUrl, key, gymId: Number(gymId), body: JSON.parse(body) as { platform_id: string } };
}

/** validate's 200 for a demo member at the demo's gym (id 1) and its Day pass, validated at some second. */
function demoValidated(member: string, productId: number) {
  return {
    status: 200,
    body: {
      metadata: { total: 1, errors: 0 },
      results: {
        user: { platform_id: member },
        gym: { Id: 1, product: { Id: productId, description: 'Day pass' } },
        validated_at: AN_ISO_SECONDS,
      },
    },
  };
}

describe('gatehouse demo', () => {
  let api: PartnerApi | undefined;
  afterAll(async () => {
    await api?.close();
  });

  test('prints one curl line whose key and check-in validate to the documented 200; run again, a fresh pair that validates too', async () => {
    const url = `sqlite:${join(tempDir(), 'demo.db')}`;
    // A database the user named: `demo` refuses it, and seeds it only when forced (serve never would).
    const cli = cliOn(url);
    expectSuccess(await cli(['migrate']));
    const refused = await cli(['demo']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `gatehouse: demo writes a live demo partner with a working key: refused on ${url}, which is not the ` +
        'default database (unset GATEHOUSE_DATABASE_URL, or pass --force)\n',
    });

    const first = expectSuccess(await cli(['demo', '--force'], { GATEHOUSE_PORT: '9123' }));

    const demo = parseCurlLine(first.stdout);
    expect(demo).toEqual({
      baseUrl: 'http://127.0.0.1:9123',
      key: A_KEY_SECRET,
      gymId: 1,
      body: { platform_id: '1234567890123' },
    });
    api = await openPartnerApi(url);
    const db = api.store.db;
    expect(await db.selectFrom('partners').select('name').execute()).toEqual([{ name: 'Demo Fitness' }]);
    const product = await db.selectFrom('products').selectAll().executeTakeFirstOrThrow();
    expect(product).toMatchObject({
      gym_id: 1,
      description: 'Day pass',
      payout_cents: 1500,
      currency: 'BRL',
    });
    expect(await db.selectFrom('checkins').select(['platform_id', 'status']).execute()).toEqual([
      { platform_id: '1234567890123', status: 'pending' },
    ]);

    const validation = await api.validate(demo.key, demo.gymId, demo.body.platform_id);

    expect(validation).toEqual(demoValidated('1234567890123', product.id));
    expect(
      await db.selectFrom('transactions').select(['platform_id', 'payout_cents', 'currency']).execute(),
    ).toEqual([{ platform_id: '1234567890123', payout_cents: 1500, currency: 'BRL' }]);

    // Run again, as the README suggests for "a fresh demo key and check-in": the demo member has used today's
    // visit, yet the new line validates too, on the same partner, gym and product.
    const second = parseCurlLine(expectSuccess(await cli(['demo', '--force'])).stdout);

    expect(second.baseUrl).toBe('http://127.0.0.1:8080');
    expect(second.key).not.toBe(demo.key);
    expect(second.gymId).toBe(1);
    const revalidation = await api.validate(second.key, second.gymId, second.body.platform_id);
    expect(revalidation).toEqual(demoValidated(second.body.platform_id, product.id));
    expect(await db.selectFrom('partners').selectAll().execute()).toHaveLength(1);
    expect(await db.selectFrom('gyms').selectAll().execute()).toHaveLength(1);
    expect(await db.selectFrom('products').selectAll().execute()).toHaveLength(1);
    expect(await db.selectFrom('api_keys').selectAll().execute()).toHaveLength(2);
    expect(await db.selectFrom('transactions').selectAll().execute()).toHaveLength(2);
  });
});
