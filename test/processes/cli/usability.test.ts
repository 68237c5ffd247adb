import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  A_KEY_PREFIX,
  A_KEY_SECRET,
  AN_ISO_MILLIS,
  cliOn,
  expectSuccess,
  gatehouse,
  jsonOf,
  openStore,
  tableOf,
  useTempDir,
} from '../../fixtures/processes/cli.js';

const tempDir = useTempDir();
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the CLI explains itself', () => {
  test('when asked for --version, then it prints the version of package.json and exits 0', async () => {
    expect(await gatehouse(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await gatehouse(['-V'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  test.for([
    ['gym create', ['--partner <id>', '--name <name>']],
    ['product create', ['--gym <id>', '--description <text>']],
    ['product list', ['--gym <id>']],
    ['key issue', ['--partner <id>']],
    ['key list', ['--partner <id>']],
    ['checkin create', ['--platform-id <id>', '--gym <id>', '--product <id>']],
  ] as const)(
    'when a command has required options (%s), then its help marks each one "(required)", and no other option',
    async ([command, required]) => {
      const result = expectSuccess(await gatehouse([...command.split(' '), '--help']));

      const optionLines = result.stdout.split('\n').filter((line) => /^ {2}--/.test(line));
      const marked = optionLines
        .filter((line) => line.includes('(required)'))
        .map((line) => line.trim().split(/ {2,}/)[0]);
      expect(marked).toEqual(required);
    },
  );
});

describe('operator commands say what the output alone would not', () => {
  let cli: ReturnType<typeof cliOn>;
  beforeAll(async () => {
    cli = cliOn(`sqlite:${join(tempDir(), 'usability.db')}`);
    expectSuccess(await cli(['migrate']));
  });

  test('when a key is issued in a table, then the secret is on a line of its own with the warning that it is shown once', async () => {
    const partner = jsonOf<{ id: number }>(
      await cli(['partner', 'create', 'Keyholders', '--format', 'json']),
    );

    const result = expectSuccess(
      await cli(['key', 'issue', '--partner', String(partner.id), '--label', 'desk']),
    );

    const [table, secretLine, warning] = result.stdout.split('\n\n');
    expect(tableOf({ ...result, stdout: `${table}\n` })).toEqual([
      {
        id: expect.stringMatching(/^\d+$/) as unknown,
        prefix: A_KEY_PREFIX,
        label: 'desk',
        gym_ids: '',
        expires_at: '',
        last_used_at: '',
        revoked_at: '',
        created_at: AN_ISO_MILLIS,
      },
    ]);
    expect(secretLine).toEqual(expect.stringMatching(/^key: ghk_[0-9a-f]{8}_[0-9a-f]{40}$/));
    expect(warning).toBe(
      'This is the only time the key is shown: gatehouse stores only its hash. Give it to the partner now.\n',
    );
  });

  test('when a key is issued as JSON, then the record carries the secret and nothing else is printed', async () => {
    const partner = jsonOf<{ id: number }>(await cli(['partner', 'create', 'Scripted', '--format', 'json']));

    const key = jsonOf(await cli(['key', 'issue', '--partner', String(partner.id), '--format', 'json']));

    expect(key).toMatchObject({ prefix: A_KEY_PREFIX, key: A_KEY_SECRET });
  });

  test('when a key is issued with --format id, then stdout has only its id and stderr the secret with the warning', async () => {
    const partner = jsonOf<{ id: number }>(
      await cli(['partner', 'create', 'Shell Users', '--format', 'json']),
    );

    const result = await cli(['key', 'issue', '--partner', String(partner.id), '--format', 'id']);

    expect(result).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^\d+\n$/) as unknown,
      stderr: expect.stringMatching(
        /^key: ghk_[0-9a-f]{8}_[0-9a-f]{40}\nThis is the only time the key is shown: gatehouse stores only its hash\. Give it to the partner now\.\n$/,
      ) as unknown,
    });
  });

  test('when a partner is created with a name that exists, then it is created and a note names the namesake', async () => {
    const first = jsonOf<{ id: number }>(await cli(['partner', 'create', 'Twin Gyms', '--format', 'json']));

    const second = await cli(['partner', 'create', 'Twin Gyms', '--format', 'json']);

    expect(second.code).toBe(0);
    const created = JSON.parse(second.stdout) as { id: number; name: string };
    expect(created).toMatchObject({ name: 'Twin Gyms' });
    expect(second.stderr).toBe(
      `gatehouse: note: a partner named "Twin Gyms" already exists (id ${first.id}); this one is id ${created.id}\n`,
    );
  });

  test('when migrate finds nothing pending, then it says so, and the database is unchanged', async () => {
    const url = `sqlite:${join(tempDir(), 'migrated-twice.db')}`;
    expect(await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: url })).toEqual({
      code: 0,
      stdout: `migrations applied to ${url}\n`,
      stderr: '',
    });

    const again = await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: url });

    expect(again).toEqual({
      code: 0,
      stdout: `no pending migrations: ${url} is up to date\n`,
      stderr: '',
    });
    const store = openStore(url);
    try {
      expect(await store.isReady()).toBe(true);
    } finally {
      await store.close();
    }
  });
});
