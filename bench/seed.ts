import { writeFileSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { generateApiKey } from '../src/domain/api-key.js';
import { createStore } from '../src/store/create-store.js';

/** What the load generator needs: each partner's key and gym, and the check-ins to validate, in order. */
export interface Fixtures {
  readonly partners: { readonly key: string; readonly gymId: number }[];
  /** Pending check-ins in insertion (time) order: [gym id, platform id]. */
  readonly checkins: [number, string][];
  /** Half of the traffic (check-ins, and the load's creations) at the first partner's gym. */
  readonly skewed?: boolean;
}

export interface SeedOptions {
  readonly databaseUrl: string;
  readonly partners: number;
  readonly checkins: number;
  /** Check-ins in the store that the run does not validate (the "2M rows" latency comparison). */
  readonly extraCheckins?: number;
  /** Every other check-in at the first partner's gym: one partner with half of the traffic. */
  readonly skewed?: boolean;
}

const DAY_MS = 86_400_000;

/** The operator token the bench's gatehouse servers run with: the member app's check-in creations use it. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-not-a-secret';

/** The extra check-ins are validated ones: each gets its transaction, as in a real ledger. */
const LEDGER_FOR_EXTRAS = `insert into transactions (checkin_id, partner_id, gym_id, product_id, platform_id, payout_cents, currency, validated_at)
  select c.id, g.partner_id, c.gym_id, c.product_id, c.platform_id, 1500, 'BRL', c.validated_at
  from checkins c join gyms g on g.id = c.gym_id where c.status = 'validated'`;

function plan(options: SeedOptions, now: number) {
  const partners = Array.from({ length: options.partners }, (_, i) => ({
    ...generateApiKey(),
    partnerId: i + 1,
    gymId: 1001 + i,
  }));
  const total = options.checkins + (options.extraCheckins ?? 0);
  // Extra (already validated) check-ins first, then the pending ones the run validates, as a day of traffic would.
  const rows = Array.from({ length: total }, (_, i) => {
    const gymId = options.skewed === true && i % 2 === 0 ? 1001 : 1001 + (i % options.partners);
    const platformId = String(1_000_000_000_000 + i);
    const extra = i < (options.extraCheckins ?? 0);
    return { i, gymId, platformId, extra, productId: gymId, at: now - (total - i) };
  });
  return { partners, rows, expiresAt: now + DAY_MS };
}

/** Seeds a migrated database in bulk (not through HTTP): 1 gym, 1 product and 1 key per partner. */
export async function seed(options: SeedOptions, fixturesPath: string): Promise<Fixtures> {
  const store = createStore({ databaseUrl: options.databaseUrl, sqliteSynchronous: 'normal' });
  await store.migrate();
  await store.close();
  const now = Date.now();
  const { partners, rows, expiresAt } = plan(options, now);
  if (options.databaseUrl.startsWith('sqlite:'))
    seedSqlite(options.databaseUrl.slice(7), partners, rows, expiresAt, now);
  else await seedPostgres(options.databaseUrl, partners, rows, expiresAt, now);
  const fixtures: Fixtures = {
    partners: partners.map((p) => ({ key: p.secret, gymId: p.gymId })),
    checkins: rows.filter((row) => !row.extra).map((row) => [row.gymId, row.platformId]),
    ...(options.skewed === true ? { skewed: true } : {}),
  };
  writeFileSync(fixturesPath, JSON.stringify(fixtures));
  return fixtures;
}

type Plan = ReturnType<typeof plan>;

function seedSqlite(
  path: string,
  partners: Plan['partners'],
  rows: Plan['rows'],
  expiresAt: number,
  now: number,
): void {
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insertPartner = db.prepare('insert into partners (id, name, created_at) values (?, ?, ?)');
  const insertGym = db.prepare('insert into gyms (id, partner_id, name, created_at) values (?, ?, ?, ?)');
  const insertProduct = db.prepare(
    'insert into products (id, gym_id, description, payout_cents, currency, created_at) values (?, ?, ?, ?, ?, ?)',
  );
  const insertKey = db.prepare(
    "insert into api_keys (partner_id, prefix, key_hash, label, scope, created_at) values (?, ?, ?, 'bench', 'all', ?)",
  );
  const insertCheckin = db.prepare(
    'insert into checkins (platform_id, gym_id, product_id, status, checked_in_at, expires_at, validated_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const p of partners) {
      insertPartner.run(p.partnerId, `Bench partner ${p.partnerId}`, now);
      insertGym.run(p.gymId, p.partnerId, `Bench gym ${p.gymId}`, now);
      insertProduct.run(p.gymId, p.gymId, 'Day pass', 1500, 'BRL', now);
      insertKey.run(p.partnerId, p.prefix, p.hash, now);
    }
  })();
  const batch = db.transaction((slice: Plan['rows']) => {
    for (const r of slice) {
      insertCheckin.run(
        r.platformId,
        r.gymId,
        r.productId,
        r.extra ? 'validated' : 'pending',
        r.at,
        expiresAt,
        r.extra ? r.at : null,
        r.at,
      );
    }
  });
  for (let i = 0; i < rows.length; i += 50_000) batch(rows.slice(i, i + 50_000));
  db.exec(LEDGER_FOR_EXTRAS);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function seedPostgres(
  url: string,
  partners: Plan['partners'],
  rows: Plan['rows'],
  expiresAt: number,
  now: number,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const p of partners) {
      await client.query('insert into partners (id, name, created_at) values ($1, $2, $3)', [
        p.partnerId,
        `Bench partner ${p.partnerId}`,
        now,
      ]);
      await client.query('insert into gyms (id, partner_id, name, created_at) values ($1, $2, $3, $4)', [
        p.gymId,
        p.partnerId,
        `Bench gym ${p.gymId}`,
        now,
      ]);
      await client.query(
        "insert into products (id, gym_id, description, payout_cents, currency, created_at) values ($1, $1, 'Day pass', 1500, 'BRL', $2)",
        [p.gymId, now],
      );
      await client.query(
        "insert into api_keys (partner_id, prefix, key_hash, label, scope, created_at) values ($1, $2, $3, 'bench', 'all', $4)",
        [p.partnerId, p.prefix, p.hash, now],
      );
    }
    for (let i = 0; i < rows.length; i += 10_000) {
      const slice = rows.slice(i, i + 10_000);
      await client.query(
        `insert into checkins (platform_id, gym_id, product_id, status, checked_in_at, expires_at, validated_at, created_at)
         select * from unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[])`,
        [
          slice.map((r) => r.platformId),
          slice.map((r) => r.gymId),
          slice.map((r) => r.productId),
          slice.map((r) => (r.extra ? 'validated' : 'pending')),
          slice.map((r) => r.at),
          slice.map(() => expiresAt),
          slice.map((r) => (r.extra ? r.at : null)),
          slice.map((r) => r.at),
        ],
      );
    }
    await client.query(LEDGER_FOR_EXTRAS);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
