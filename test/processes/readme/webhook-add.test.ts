import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatehouse, openStore } from '../../fixtures/processes/cli.js';
import { bashSession } from '../../fixtures/processes/bash-session.js';
import { readmeSection, shellBlocks } from './readme-section.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The README's `webhook add` example, pasted as written after the walkthrough's first block (which sets
 * `$partner`), in a checkout whose default database is migrated: nothing is edited.
 */
describe('README "Webhooks": the webhook add example, run as written', () => {
  let checkout: string;
  let session: ReturnType<typeof bashSession>;
  const database = () => `sqlite:${join(checkout, 'data', 'gatehouse.db')}`;

  beforeAll(async () => {
    checkout = mkdtempSync(join(tmpdir(), 'gatehouse-readme-webhook-'));
    copyFileSync(join(REPO_ROOT, 'gatehouse'), join(checkout, 'gatehouse'));
    symlinkSync(join(REPO_ROOT, 'dist'), join(checkout, 'dist'));
    expect((await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: database() })).code).toBe(0);
    const env = Object.entries(process.env).filter(
      ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
    );
    session = bashSession(checkout, Object.fromEntries(env));
  });
  afterAll(() => {
    session.close();
    rmSync(checkout, { recursive: true, force: true });
  });

  test('when the partner is made as the walkthrough does and the example is pasted, then the endpoint is registered for those events and its secret printed once', async () => {
    const [catalog = ''] = shellBlocks(readmeSection('## Operating a network'));
    const [add = ''] = shellBlocks(readmeSection('## Webhooks'));
    expect(add).toContain('./gatehouse webhook add --partner "$partner"');
    await session.run(catalog);

    const added = await session.run(add);

    const store = openStore(database());
    try {
      const endpoints = await store.db
        .selectFrom('webhook_endpoints')
        .select(['id', 'partner_id', 'url', 'event_types', 'gym_ids', 'format', 'status'])
        .execute();
      const [partner] = await store.db.selectFrom('partners').select('id').execute();
      expect(endpoints).toEqual([
        {
          id: 1,
          partner_id: partner?.id,
          url: 'http://127.0.0.1:3000/hooks/gatehouse',
          event_types: '["checkin.created","checkin.validated"]',
          gym_ids: null,
          format: 'standard',
          status: 'enabled',
        },
      ]);
    } finally {
      await store.close();
    }
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(
      /^id +partner_id +url .*\n1 +1 +http:\/\/127\.0\.0\.1:3000\/hooks\/gatehouse +checkin\.created,checkin\.validated .*\n\nsecret: whsec_[A-Za-z0-9+/]{43}=\n\nThis is the only time the secret is shown\. Give it to the receiver now\.\n$/,
    );
  });
});
