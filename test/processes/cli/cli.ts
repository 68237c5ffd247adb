import { execFile, type ExecFileException } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, expect } from 'vitest';
import { buildApp, type App } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createServices, type Services } from '../../../src/services/index.js';
import { systemClock } from '../../../src/domain/clock.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/store.js';

const execFileAsync = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = 'dist/cli/main.js';
/** One CLI call takes a second or two; a hung one is a failure, not a stuck suite. */
const CLI_TIMEOUT_MS = 20_000;

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The child's environment: the test's own, without any GATEHOUSE_* setting or loader of the test runner. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
  );
  return { ...Object.fromEntries(inherited), GATEHOUSE_LOG_LEVEL: 'silent', ...env };
}

/**
 * `node dist/cli/main.js …args`, as an operator runs `./gatehouse …args`. Resolves with the exit code and both
 * outputs whatever the code; rejects only when the process could not run or outlived its timeout.
 */
export async function gatehouse(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: childEnv(env),
      timeout: CLI_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ExecFileException & { stdout?: string; stderr?: string };
    if (typeof failed.code === 'number') {
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
    throw new Error(
      `gatehouse ${args.join(' ')} did not finish (signal ${failed.signal ?? 'none'}): ${failed.message}\n` +
        `stdout:\n${failed.stdout ?? ''}\nstderr:\n${failed.stderr ?? ''}`,
      { cause: error },
    );
  }
}

/** A fresh directory for SQLite files, removed after the file's tests. */
export function useTempDir(): () => string {
  let dir: string | undefined;
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return () => (dir ??= mkdtempSync(join(tmpdir(), 'gatehouse-cli-')));
}

/** `gatehouse` on one SQLite file. */
export function cliOn(databaseUrl: string) {
  return (args: readonly string[], env: Record<string, string> = {}) =>
    gatehouse(args, { GATEHOUSE_DATABASE_URL: databaseUrl, ...env });
}

/** Asserts a successful call: exit 0 and nothing on stderr (the whole result in the message otherwise). */
export function expectSuccess(result: CliResult): CliResult {
  expect(result, 'gatehouse should succeed silently on stderr').toMatchObject({ code: 0, stderr: '' });
  return result;
}

/** The JSON a successful `--format json` call printed. */
export function jsonOf<T = unknown>(result: CliResult): T {
  return JSON.parse(expectSuccess(result).stdout) as T;
}

/** The records a successful `--format csv` call printed, every value a string, keyed by the header line. */
export function csvOf(result: CliResult): Record<string, string>[] {
  return parse(expectSuccess(result).stdout, { columns: true, skip_empty_lines: true });
}

/**
 * The records of a successful `--format table` call: the header names the columns, every column starts where its
 * name does (cells are padded to the widest), so values with spaces survive; empty cells are ''.
 */
export function tableOf(result: CliResult): Record<string, string>[] {
  const lines = expectSuccess(result)
    .stdout.split('\n')
    .filter((line) => line !== '');
  const [header, ...rows] = lines;
  if (header === undefined || header === '(none)') return [];
  const columns = [...header.matchAll(/\S+/g)].map((match) => ({ name: match[0], start: match.index }));
  return rows.map((row) =>
    Object.fromEntries(
      columns.map((column, i) => [
        column.name,
        row.slice(column.start, columns[i + 1]?.start ?? row.length).trim(),
      ]),
    ),
  );
}

/** What a record looks like in CSV and in the table: every value a string, null and absent empty. */
export function asText(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([name, value]) => [
      name,
      value === null || value === undefined ? '' : String(value as string | number),
    ]),
  );
}

/** The wire bodies, from the one module that writes them out. */
export { DENY_MESSAGE, EXPLICIT_DENY } from '../../fixtures/wire-bodies.js';
export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Asymmetric matchers, typed `unknown` so they sit in expected objects without `any`. */
export const A_NUMBER: unknown = expect.any(Number);
export const DIGITS: unknown = expect.stringMatching(/^[1-9][0-9]*$/);
export const AN_ISO_MILLIS: unknown = expect.stringMatching(ISO_MILLIS);
export const AN_ISO_SECONDS: unknown = expect.stringMatching(ISO_SECONDS);
export const A_KEY_PREFIX: unknown = expect.stringMatching(/^ghk_[0-9a-f]{8}$/);
export const A_KEY_SECRET: unknown = expect.stringMatching(/^ghk_[0-9a-f]{8}_[0-9a-f]{40}$/);
export const containing = (expected: Record<string, unknown>): unknown => expect.objectContaining(expected);

export const isoMillis = (epochMs: number) => new Date(epochMs).toISOString();
export const isoSeconds = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 19) + 'Z';

/** The database as the tests read it: a store of this process on the CLI's SQLite file (not migrated by it). */
export function openStore(databaseUrl: string): Store {
  return createStore(loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl, GATEHOUSE_LOG_LEVEL: 'silent' }));
}

/**
 * The partner API in this test process, on the SQLite file the CLI writes (buildApp over createStore, driven
 * with inject), with the store it reads the database's state through and the operator's services for arranging.
 */
export interface PartnerApi {
  readonly app: App['server'];
  readonly store: Store;
  readonly services: Services;
  validate(key: string, gymId: number, platformId: string): Promise<{ status: number; body: unknown }>;
  /** Writes the key uses the app has noted (it does so every 10 s on its own): last_used_at then holds still. */
  settleKeyUsage(): Promise<void>;
  close(): Promise<void>;
}

export async function openPartnerApi(databaseUrl: string): Promise<PartnerApi> {
  const config = loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl, GATEHOUSE_LOG_LEVEL: 'silent' });
  const store = createStore(config);
  const { server, services: appServices } = await buildApp({ config, store });
  const services = createServices({ store, clock: systemClock, config });
  return {
    app: server,
    store,
    services,
    async validate(key, gymId, platformId) {
      const response = await server.inject({
        method: 'POST',
        url: '/access/v1/validate',
        headers: { authorization: `Bearer ${key}`, 'x-gym-id': String(gymId) },
        payload: { platform_id: platformId },
      });
      return { status: response.statusCode, body: response.json<unknown>() };
    },
    settleKeyUsage: () => appServices.apiKeys.flushUsage(),
    async close() {
      await server.close();
      await services.apiKeys.close();
      await store.close();
    },
  };
}
