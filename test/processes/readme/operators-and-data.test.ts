import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NEWEST_MIGRATION } from '../../../src/services/release.js';
import { VERSION } from '../../../src/config/version.js';
import { arrangePartner } from '../../fixtures/factories.js';
import { adminQuery, PG_TEST_URL, pgAvailable } from '../../fixtures/postgres.js';
import { gatehouse, openStore } from '../../fixtures/processes/cli.js';
import { openOperator } from '../../fixtures/processes/arrange.js';
import { freePort } from '../../fixtures/processes/private-postgres.js';
import { bashSession } from '../../fixtures/processes/bash-session.js';
import { readmeSection, shellBlocks } from './readme-section.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MEMBER = '9876543210987';

/** A directory that holds what a checkout needs to run: `./gatehouse` and the build. */
function checkoutDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-readme-ops-'));
  copyFileSync(join(REPO_ROOT, 'gatehouse'), join(dir, 'gatehouse'));
  symlinkSync(join(REPO_ROOT, 'dist'), join(dir, 'dist'));
  return dir;
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
  );
  return { ...Object.fromEntries(inherited), ...extra };
}

/**
 * The README's "Operators and roles", "Members' data" and "Backups and upgrades" sections, pasted block by block
 * into one bash in a checkout whose default database already serves a network (as after "Operating a network").
 * The only edits are the port (another run may hold 8082) and, for the restore, stopping the server first, as the
 * README says to.
 */
describe('README "Operators and roles", "Members\' data" and "Backups and upgrades", followed literally', () => {
  let checkout: string;
  let port: number;
  let session: ReturnType<typeof bashSession>;
  const database = () => `sqlite:${join(checkout, 'data', 'gatehouse.db')}`;

  beforeAll(async () => {
    checkout = checkoutDir();
    port = await freePort();
    session = bashSession(checkout, cleanEnv());
    expect((await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: database() })).code).toBe(0);
    const operator = openOperator(database());
    const network = await arrangePartner(operator.services);
    await operator.services.checkins.create({
      platformId: MEMBER,
      gymId: network.gym.id,
      productId: network.product.id,
    });
    await operator.close();
  });
  afterAll(() => {
    session.close();
    rmSync(checkout, { recursive: true, force: true });
  });

  const pasted = (block: string) => {
    const text = block
      .replaceAll('127.0.0.1:8082', `127.0.0.1:${port}`)
      .replaceAll('GATEHOUSE_PORT=8082', `GATEHOUSE_PORT=${port}`);
    expect(text).not.toMatch(/8082/);
    return text;
  };

  test('when each block is run as written, then operators are made and refused by role, the member is erased, retention runs, and a backup is taken, restored and served', async () => {
    const [create = '', refused = ''] = shellBlocks(readmeSection('## Operators and roles'));
    const [erase = '', purge = ''] = shellBlocks(readmeSection("## Members' data"));
    const [backup = '', restore = '', , version = ''] = shellBlocks(readmeSection('## Backups and upgrades'));

    const created = await session.run(pasted(create));
    expect(created.stdout).toMatch(/^token: gho_[0-9a-f]{8}_[0-9a-f]{40}$/m);
    expect(created.stdout).toMatch(/^1 +ana@example\.com +support +gho_[0-9a-f]{8} /m);
    expect(created.stderr).toBe('');

    const answer = (await session.run(pasted(refused), 60_000)).stdout.trim().split('\n').at(-1);
    expect(JSON.parse(answer ?? '')).toEqual({
      metadata: { total: 0, errors: 1 },
      errors: [
        { message: 'the readonly role may not change partners, gyms or products', key: 'authorization' },
      ],
    });

    const erased = await session.run(pasted(erase));
    expect(erased.stdout).toMatch(
      /^member erased: now erased-[0-9a-f]{16} \(custom codes deleted: 0, check-ins: 1, transactions: 0, event payloads purged: 1, audit entries: 0, webhook deliveries: 0, reversal reasons: 0\)\nnot reached: payloads already delivered to webhook receivers and event streams\nnot reached: backups made before the erasure\n$/,
    );
    const purged = await session.run(pasted(purge));
    expect(purged.stdout).toBe(
      'purged 0 event payloads older than 30 days and 0 unpaid check-ins older than 400 days\n',
    );

    const made = await session.run(pasted(backup));
    expect(made.stdout).toMatch(
      /^backup of \.\/data\/gatehouse\.db written to .*gatehouse-backup\.db \(\d+ pages, integrity ok\)\n$/,
    );
    expect(existsSync(join(checkout, 'gatehouse-backup.db'))).toBe(true);

    // "Stop every gatehouse process on the database first": the reader's server, started above.
    await session.run('kill %1 && wait %1 || true');
    const restored = await session.run(pasted(restore));
    expect(restored.stdout).toMatch(/^\.\/data\/gatehouse\.db restored from .*gatehouse-backup\.db\n$/);
    const store = openStore(database());
    try {
      const operators = await store.db
        .selectFrom('operators')
        .select(['name', 'role'])
        .orderBy('id')
        .execute();
      expect(operators).toEqual([
        { name: 'ana@example.com', role: 'support' },
        { name: 'dashboard', role: 'readonly' },
      ]);
      const member = await store.db
        .selectFrom('checkins')
        .select('id')
        .where('platform_id', '=', MEMBER)
        .execute();
      expect(member).toEqual([]);
    } finally {
      await store.close();
    }

    await session.run(
      `GATEHOUSE_PORT=${port} GATEHOUSE_LOG_LEVEL=warn ./gatehouse serve > /dev/null &\n` +
        `until curl -sf -o /dev/null http://127.0.0.1:${port}/ready; do sleep 0.2; done`,
      30_000,
    );
    const shown = await session.run(pasted(version));
    expect(shown.stdout).toMatch(
      new RegExp(
        `^${VERSION.replaceAll('.', '\\.')} \\(commit ([0-9a-f]{12}|unknown), migration ${NEWEST_MIGRATION}\\)\\n` +
          `\\{"status":"ok","version":"${VERSION.replaceAll('.', '\\.')}"\\}$`,
      ),
    );
  });
});

describe.runIf(pgAvailable)('README "Backups and upgrades" on PostgreSQL: pg_dump, then pg_restore', () => {
  const name = `gh_dump_${randomBytes(6).toString('hex')}`;
  const url = new URL(PG_TEST_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let checkout: string;
  let session: ReturnType<typeof bashSession>;

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    checkout = checkoutDir();
    session = bashSession(checkout, cleanEnv({ GATEHOUSE_DATABASE_URL: databaseUrl }));
  });
  afterAll(async () => {
    session.close();
    rmSync(checkout, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  });

  test('when a dump is taken and restored over later changes, then the database is as it was at the dump, and gatehouse validates against it', async () => {
    const [, , dumpAndRestore = ''] = shellBlocks(readmeSection('## Backups and upgrades'));
    const [dump = '', restore = ''] = dumpAndRestore.trim().split('\n');
    expect((await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: databaseUrl })).code).toBe(0);
    const operator = openOperator(databaseUrl);
    try {
      const network = await arrangePartner(operator.services);
      const checkin = await operator.services.checkins.create({
        platformId: MEMBER,
        gymId: network.gym.id,
        productId: network.product.id,
      });

      await session.run(dump, 60_000);
      await operator.services.checkins.cancel(checkin.id);
      await operator.services.catalog.createPartner('Made after the dump');
      await operator.store.close();
      await session.run(restore, 60_000);

      const after = openOperator(databaseUrl);
      try {
        const partners = await after.store.db.selectFrom('partners').select('name').execute();
        expect(partners.map((row) => row.name)).not.toContain('Made after the dump');
        const api = await import('../../fixtures/processes/cli.js').then((cli) =>
          cli.openPartnerApi(databaseUrl),
        );
        try {
          const validated = await api.validate(network.key, network.gym.id, MEMBER);
          expect(validated.status).toBe(200);
          const paid = await after.store.db.selectFrom('transactions').select('checkin_id').execute();
          expect(paid).toEqual([{ checkin_id: checkin.id }]);
        } finally {
          await api.close();
        }
      } finally {
        await after.close();
      }
    } finally {
      await operator.close().catch(() => undefined);
    }
  });
});
