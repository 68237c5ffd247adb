import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cliOn,
  expectSuccess,
  gatehouse,
  openPartnerApi,
  openStore,
  useTempDir,
  type PartnerApi,
} from '../../fixtures/processes/cli.js';

const tempDir = useTempDir();
let files = 0;
/** A SQLite file of its own that does not exist yet. */
function freshDatabase(): { path: string; url: string } {
  files += 1;
  const path = join(tempDir(), `errors-${files}.db`);
  return { path, url: `sqlite:${path}` };
}

/**
 * Bad arguments are refused by the parser, before any database is opened: a non-zero exit, nothing on stdout,
 * and two lines on stderr: commander's message naming the option (or argument) and what it must be, then where
 * the usage is (not the whole help).
 */
const BAD_ARGUMENTS: readonly (readonly [args: string, message: string, command: string])[] = [
  [
    'gym create --partner abc --name X',
    "error: option '--partner <id>' argument 'abc' is invalid. must be a positive integer",
    'gatehouse gym create',
  ],
  [
    'product create --gym 1 --description Day --payout-cents 12.50',
    "error: option '--payout-cents <cents>' argument '12.50' is invalid. must be a whole number of cents",
    'gatehouse product create',
  ],
  [
    'product create --gym 1 --description Day --currency brl',
    "error: option '--currency <code>' argument 'brl' is invalid. must be a three-letter ISO code",
    'gatehouse product create',
  ],
  [
    'key issue --partner 1 --gyms 1,x',
    "error: option '--gyms <ids>' argument '1,x' is invalid. must be a positive integer",
    'gatehouse key issue',
  ],
  [
    'key issue --partner 1 --expires-at tomorrow',
    "error: option '--expires-at <time>' argument 'tomorrow' is invalid. must be an ISO-8601 date or date-time",
    'gatehouse key issue',
  ],
  [
    'key list --partner -1',
    "error: option '--partner <id>' argument '-1' is invalid. must be a positive integer",
    'gatehouse key list',
  ],
  [
    'key revoke abc',
    "error: command-argument value 'abc' is invalid for argument 'key-id'. must be a positive integer",
    'gatehouse key revoke',
  ],
  [
    'checkin cancel first',
    "error: command-argument value 'first' is invalid for argument 'checkin-id'. must be a positive integer",
    'gatehouse checkin cancel',
  ],
  [
    'checkin create --platform-id 123456789012 --gym 1 --product 1',
    "error: option '--platform-id <id>' argument '123456789012' is invalid. must be 13 digits",
    'gatehouse checkin create',
  ],
  [
    'checkin list --status done',
    "error: option '--status <status>' argument 'done' is invalid. must be one of pending, validated, cancelled, expired",
    'gatehouse checkin list',
  ],
  [
    'partner list --format xml',
    "error: option '--format <format>' argument 'xml' is invalid. must be one of table, json, csv",
    'gatehouse partner list',
  ],
  [
    'payouts --from yesterday --to 2025-01-02',
    "error: option '--from <time>' argument 'yesterday' is invalid. must be an ISO-8601 date or date-time",
    'gatehouse payouts',
  ],
  [
    'transactions --to 2025-13-01',
    "error: option '--to <time>' argument '2025-13-01' is invalid. must be an ISO-8601 date or date-time",
    'gatehouse transactions',
  ],
  ['gym create --name X', "error: required option '--partner <id>' not specified", 'gatehouse gym create'],
  ['checkin cancel', "error: missing required argument 'checkin-id'", 'gatehouse checkin cancel'],
  ['partner list --bogus', "error: unknown option '--bogus'", 'gatehouse partner list'],
  ['frobnicate', "error: unknown command 'frobnicate'", 'gatehouse'],
];

describe.concurrent('bad arguments: a non-zero exit and a message on stderr naming the option', () => {
  test.for(BAD_ARGUMENTS)('gatehouse %s', async ([args, message, command], { expect }) => {
    const database = freshDatabase();

    const result = await gatehouse(args.split(' '), { GATEHOUSE_DATABASE_URL: database.url });

    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    const [first, ...rest] = result.stderr.split('\n');
    expect(first?.startsWith(message), result.stderr).toBe(true);
    expect(rest).toEqual([`Run '${command} --help' for its usage.`, '']);
    // Refused before anything was opened: the database was not even created.
    expect(existsSync(database.path)).toBe(false);
  });

  test('gatehouse with no command prints the usage and exits non-zero', async ({ expect }) => {
    const database = freshDatabase();

    const result = await gatehouse([], { GATEHOUSE_DATABASE_URL: database.url });

    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('Usage: gatehouse [options] [command]');
    expect(existsSync(database.path)).toBe(false);
  });
});

/**
 * A bad GATEHOUSE_* value stops every command with exit 1 and one line: the variable, the value as given and the
 * allowed values, once (never the validator's raw output); a secret shows only its length, a URL no password.
 */
const BAD_CONFIGURATION: readonly (readonly [env: Record<string, string>, stderr: string])[] = [
  [
    { GATEHOUSE_LOG_LEVEL: 'verbose' },
    'gatehouse: GATEHOUSE_LOG_LEVEL="verbose" is not valid: use one of fatal, error, warn, info, debug, trace, silent\n',
  ],
  [
    { GATEHOUSE_PORT: 'abc' },
    'gatehouse: GATEHOUSE_PORT="abc" is not valid: use a whole number from 0 to 65535\n',
  ],
  [
    { GATEHOUSE_PORT: '70000' },
    'gatehouse: GATEHOUSE_PORT="70000" is not valid: use a whole number from 0 to 65535\n',
  ],
  [
    { GATEHOUSE_CHECKIN_TTL_SECONDS: '0' },
    'gatehouse: GATEHOUSE_CHECKIN_TTL_SECONDS="0" is not valid: use a whole number of at least 1\n',
  ],
  [
    { GATEHOUSE_TIMEZONE: 'Mars/Olympus_Mons' },
    'gatehouse: GATEHOUSE_TIMEZONE="Mars/Olympus_Mons" is not valid: use an IANA time zone such as UTC or America/Sao_Paulo\n',
  ],
  [{ GATEHOUSE_MIGRATE: 'maybe' }, 'gatehouse: GATEHOUSE_MIGRATE="maybe" is not valid: use true or false\n'],
  [
    { GATEHOUSE_SQLITE_SYNCHRONOUS: 'off' },
    'gatehouse: GATEHOUSE_SQLITE_SYNCHRONOUS="off" is not valid: use one of full, normal\n',
  ],
  [
    { GATEHOUSE_CURRENCY: 'brl' },
    'gatehouse: GATEHOUSE_CURRENCY="brl" is not valid: use a three-letter ISO 4217 code such as BRL\n',
  ],
  [
    { GATEHOUSE_DATABASE_URL: 'mysql://app:hunter2@localhost/gatehouse' },
    'gatehouse: GATEHOUSE_DATABASE_URL="mysql://app:***@localhost/gatehouse" is not valid: use sqlite:<path>, sqlite::memory: or postgres://<user>@<host>:<port>/<database>\n',
  ],
  [
    { GATEHOUSE_ADMIN_TOKEN: 'too-short' },
    'gatehouse: GATEHOUSE_ADMIN_TOKEN (9 characters) is not valid: use one token of at least 16 characters, or several separated by commas (to rotate without downtime)\n',
  ],
  [
    { GATEHOUSE_PORT: 'x', GATEHOUSE_LOG_LEVEL: 'loud' },
    'gatehouse: GATEHOUSE_PORT="x" is not valid: use a whole number from 0 to 65535\n' +
      'gatehouse: GATEHOUSE_LOG_LEVEL="loud" is not valid: use one of fatal, error, warn, info, debug, trace, silent\n',
  ],
];

describe.concurrent(
  'a bad GATEHOUSE_* value: exit 1 and one line naming the variable, its value and the allowed values',
  () => {
    test.for(BAD_CONFIGURATION)('%o', async ([env, stderr], { expect }) => {
      const database = freshDatabase();

      const result = await gatehouse(['partner', 'list'], { GATEHOUSE_DATABASE_URL: database.url, ...env });

      expect(result).toEqual({ code: 1, stdout: '', stderr });
      expect(existsSync(database.path)).toBe(false);
    });
  },
);

/** An unknown entity: exit 1, `gatehouse: <message> (<key>)` on stderr, and nothing written. */
const UNKNOWN_ENTITIES: readonly (readonly [args: string, stderr: string])[] = [
  ['gym create --partner 999 --name Nowhere', 'gatehouse: partner not found (partner.not-found)\n'],
  ['product create --gym 999 --description Day', 'gatehouse: gym not found (gym.not-found)\n'],
  ['key revoke 999', 'gatehouse: key not found (key.not-found)\n'],
  ['checkin cancel 999', 'gatehouse: checkin not found (checkin.not-found)\n'],
];

describe.concurrent('unknown entities on a migrated, empty database', () => {
  test.for(UNKNOWN_ENTITIES)('gatehouse %s', async ([args, stderr], { expect }) => {
    const database = freshDatabase();
    expectSuccess(await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: database.url }));

    const result = await gatehouse(args.split(' '), { GATEHOUSE_DATABASE_URL: database.url });

    expect(result).toEqual({ code: 1, stdout: '', stderr });
    const store = openStore(database.url);
    try {
      for (const table of ['partners', 'gyms', 'products', 'api_keys', 'checkins', 'audit_log'] as const) {
        expect(await store.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe('conflicts with what the database holds', () => {
  const database = { url: '' };
  let api: PartnerApi;
  beforeAll(async () => {
    database.url = freshDatabase().url;
    api = await openPartnerApi(database.url);
    await api.store.migrate();
  });
  afterAll(() => api.close());

  test('gym create with a gym id that is taken: exit 1, gym.already-exists, the gym unchanged', async () => {
    const partner = await api.services.catalog.createPartner('Iron Temple');
    const other = await api.services.catalog.createPartner('Other Chain');
    await api.services.catalog.createGym({ id: 4242, partnerId: partner.id, name: 'Iron Temple Downtown' });
    const before = await api.store.db.selectFrom('gyms').selectAll().execute();

    const result = await cliOn(database.url)([
      'gym',
      'create',
      '--partner',
      String(other.id),
      '--id',
      '4242',
      '--name',
      'Impostor',
    ]);

    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'gatehouse: gym already exists (gym.already-exists)\n',
    });
    expect(await api.store.db.selectFrom('gyms').selectAll().execute()).toEqual(before);
  });

  test('checkin cancel of a validated check-in: exit 1, checkin.already.validated, still validated and paid once', async () => {
    const partner = await api.services.catalog.createPartner('Validated Gyms');
    const gym = await api.services.catalog.createGym({ partnerId: partner.id, name: 'Validated Gyms North' });
    const product = await api.services.catalog.createProduct(gym.id, {
      description: 'Day pass',
      payoutCents: 900,
    });
    const issued = await api.services.apiKeys.issue(partner.id, {});
    const checkin = await api.services.checkins.create({
      platformId: '5550000000001',
      gymId: gym.id,
      productId: product.id,
    });
    expect((await api.validate(issued.secret, gym.id, '5550000000001')).status).toBe(200);
    const before = await api.store.db
      .selectFrom('checkins')
      .selectAll()
      .where('id', '=', checkin.id)
      .execute();

    const result = await cliOn(database.url)(['checkin', 'cancel', String(checkin.id)]);

    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'gatehouse: Check-In already validated (checkin.already.validated)\n',
    });
    const after = await api.store.db
      .selectFrom('checkins')
      .selectAll()
      .where('id', '=', checkin.id)
      .execute();
    expect(after).toEqual(before);
    expect(after[0]).toMatchObject({ status: 'validated', cancelled_at: null });
    const paid = await api.store.db
      .selectFrom('transactions')
      .selectAll()
      .where('checkin_id', '=', checkin.id)
      .execute();
    expect(paid).toHaveLength(1);
  });
});
