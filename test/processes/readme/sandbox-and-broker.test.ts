import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatehouse, openStore } from '../../fixtures/processes/cli.js';
import { freePort } from '../../fixtures/processes/private-postgres.js';
import { openStreamReader, SHARED_NATS } from '../../fixtures/nats-stream-reader.js';
import { bashSession } from '../../fixtures/processes/bash-session.js';
import { readmeSection, shellBlocks } from './readme-section.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The stream the README's example names: removed before and after, so each run reads only its own events. */
const README_STREAM = 'ACME';

function cleanEnv(): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
  );
  return Object.fromEntries(inherited);
}

/**
 * The README's "The sandbox" and "The broker feed" sections, pasted block by block into one bash in a checkout
 * (`./gatehouse`, the build and node_modules) whose default database is migrated. The only edits are the ports.
 */
describe('README "The sandbox" and "The broker feed", followed literally', () => {
  let checkout: string;
  let ports: { sandbox: number; feed: number };
  let session: ReturnType<typeof bashSession>;
  const database = () => `sqlite:${join(checkout, 'data', 'gatehouse.db')}`;
  const removeStream = async () => {
    const reader = await openStreamReader(SHARED_NATS);
    await reader.remove(README_STREAM);
    await reader.close();
  };

  beforeAll(async () => {
    checkout = mkdtempSync(join(tmpdir(), 'gatehouse-readme-sandbox-'));
    copyFileSync(join(REPO_ROOT, 'gatehouse'), join(checkout, 'gatehouse'));
    symlinkSync(join(REPO_ROOT, 'dist'), join(checkout, 'dist'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(checkout, 'node_modules'));
    ports = { sandbox: await freePort(), feed: await freePort() };
    expect((await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: database() })).code).toBe(0);
    await removeStream();
    session = bashSession(checkout, cleanEnv());
  });
  afterAll(async () => {
    session.close();
    await removeStream();
    rmSync(checkout, { recursive: true, force: true });
  });

  /**
   * The JSON answer a curl printed. The server the setup block started in the background writes to the same
   * terminal, and its first lines may come after `/ready` answered: they are not the answer.
   */
  const answerOf = (stdout: string): unknown =>
    JSON.parse(
      stdout
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .at(-1) ?? stdout,
    );

  const pasted = (block: string) => {
    const text = block
      .replaceAll('127.0.0.1:8083', `127.0.0.1:${ports.sandbox}`)
      .replaceAll('GATEHOUSE_PORT=8083', `GATEHOUSE_PORT=${ports.sandbox}`)
      .replaceAll('127.0.0.1:8084', `127.0.0.1:${ports.feed}`)
      .replaceAll('GATEHOUSE_PORT=8084', `GATEHOUSE_PORT=${ports.feed}`);
    expect(text).not.toMatch(/808[34]/);
    return text;
  };

  test('when each block is run as written, then the sandbox check-in is simulated and validated, never paid, and every event reaches the stream', async () => {
    const [setup = '', simulate = '', validate = ''] = shellBlocks(readmeSection('## The sandbox'));
    const [serveWithNats = '', subscribe = ''] = shellBlocks(readmeSection('## The broker feed'));

    await session.run(pasted(setup), 60_000);
    const simulated = answerOf((await session.run(pasted(simulate))).stdout);
    const validated = answerOf((await session.run(pasted(validate))).stdout) as { metadata: unknown };

    expect(simulated).toEqual({
      event_type: 'checkin',
      event_data: {
        user: { unique_token: '1234567890123' },
        gym: {
          id: 9042,
          title: 'Acme Test Gym',
          product: { id: expect.any(Number) as unknown, description: 'Day pass' },
        },
        timestamp: expect.any(Number) as unknown,
      },
    });
    expect(validated.metadata).toEqual({ total: 1, errors: 0 });
    const payouts = await gatehouse(['payouts', '--format', 'csv'], { GATEHOUSE_DATABASE_URL: database() });
    expect(payouts.stdout).not.toContain('9042');

    await session.run(pasted(serveWithNats), 60_000);
    const store = openStore(database());
    const events = await store.db.selectFrom('events').select(['id', 'type']).orderBy('position').execute();
    await store.close();
    const reader = await openStreamReader(SHARED_NATS);
    const deadline = Date.now() + 20_000;
    while ((await reader.count(README_STREAM).catch(() => 0)) < events.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await reader.close();
    const read = await session.run(pasted(subscribe), 30_000);

    expect(events.map((event) => event.type)).toEqual([
      'checkin.created',
      'checkin.validated',
      'checkin.created',
    ]);
    expect(read.stdout).toBe(events.map((event) => `acme.${event.type} ${event.id}\n`).join(''));
  });
});
