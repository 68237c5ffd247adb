import { execFileSync } from 'node:child_process';
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
import { migrations } from '../../../src/store/migrations/index.js';

const tempDir = useTempDir();
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the CLI explains itself', () => {
  test('when asked for --version, then it prints the version of package.json, the commit and the newest migration, and exits 0', async () => {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    const newest = Object.keys(migrations).at(-1) ?? '';
    const line = `${version} (commit ${commit}, migration ${newest})\n`;

    expect(await gatehouse(['--version'])).toEqual({ code: 0, stdout: line, stderr: '' });
    expect(await gatehouse(['-V'])).toEqual({ code: 0, stdout: line, stderr: '' });
    expect(newest).toMatch(/^\d{4}-/);
  });

  test('when GATEHOUSE_* variables that are no setting are set, then one warning line names them, with the setting each likely meant', async () => {
    const result = await gatehouse(['partner', 'list'], {
      GATEHOUSE_DATABSE_URL: `sqlite:${join(tempDir(), 'typo.db')}`,
      GATEHOUSE_PROT: '9000',
      GATEHOUSE_NOTHING_LIKE_IT: '1',
    });

    const [first, ...rest] = result.stderr.split('\n');
    expect(first).toBe(
      'gatehouse: warning: unknown settings ignored: GATEHOUSE_DATABSE_URL (did you mean GATEHOUSE_DATABASE_URL?), ' +
        'GATEHOUSE_NOTHING_LIKE_IT, GATEHOUSE_PROT (did you mean GATEHOUSE_PORT?)',
    );
    expect(rest.join('\n')).not.toContain('warning');
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
