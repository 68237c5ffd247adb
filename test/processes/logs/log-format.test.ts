import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { requireService } from '../../fixtures/required-services.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO_ROOT, 'dist/cli/main.js');
const SCRIPT = '/usr/bin/script';
const terminal = requireService('util-linux script (a terminal)', existsSync(SCRIPT), `${SCRIPT} is missing`);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ANSI = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');
const LISTENING = /Server listening at http:\/\/127\.0\.0\.1:\d+/;
const PRETTY = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/;
const fresh = () => join(dir, Math.random().toString(36).slice(2));

interface Launch {
  readonly command: string;
  readonly args: string[];
  /** The file the server's pid is written to, when it runs in a session of its own (behind `script`). */
  readonly pidFile?: string;
}

/** This process's environment without its own gatehouse settings and Node options: each server sets its own. */
const inheritedEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS'),
  );

/** `gatehouse serve` with its stdout on a pipe. */
const onPipe = (): Launch => ({ command: process.execPath, args: [CLI, 'serve'] });

/** `gatehouse serve` on a pseudo-terminal: util-linux `script` runs it there and copies what it shows to a pipe. */
function onTerminal(): Launch {
  const pidFile = `${fresh()}.pid`;
  const command = `echo $$ > '${pidFile}'; exec '${process.execPath}' '${CLI}' serve`;
  return { command: SCRIPT, args: ['-qfec', command, '/dev/null'], pidFile };
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Starts a real server, resolves with its first output line (colours and carriage returns removed) once one
 * names the listening address, and kills it (and `script`, if any).
 */
function firstLine(launch: Launch, env: Record<string, string>): Promise<string> {
  const child = spawn(launch.command, launch.args, {
    cwd: REPO_ROOT,
    env: {
      ...inheritedEnv(),
      GATEHOUSE_DATABASE_URL: `sqlite:${fresh()}.db`,
      GATEHOUSE_PORT: '0',
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<string>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      if (launch.pidFile !== undefined && existsSync(launch.pidFile))
        kill(Number(readFileSync(launch.pidFile, 'utf8')));
      if (child.pid !== undefined) kill(-child.pid);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no listening line within 15 s:\n${output}`));
    }, 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8').replace(ANSI, '').replaceAll('\r', '');
      if (!LISTENING.test(output)) return;
      stop();
      resolve(output.split('\n')[0] ?? '');
    });
  });
}

describe('serve writes JSON lines for machines and readable lines for people', () => {
  test('when stdout is a pipe and GATEHOUSE_LOG_FORMAT is unset, then each line is JSON', async () => {
    const line = await firstLine(onPipe(), {});

    expect(JSON.parse(line)).toMatchObject({ level: 30, msg: expect.stringMatching(LISTENING) as unknown });
  });

  test('when GATEHOUSE_LOG_FORMAT=pretty, then lines are readable even through a pipe', async () => {
    expect(await firstLine(onPipe(), { GATEHOUSE_LOG_FORMAT: 'pretty' })).toMatch(PRETTY);
  });

  test.skipIf(!terminal)(
    'when stdout is a terminal and GATEHOUSE_LOG_FORMAT is unset, then lines are readable',
    async () => {
      expect(await firstLine(onTerminal(), {})).toMatch(PRETTY);
    },
  );

  test.skipIf(!terminal)('when GATEHOUSE_LOG_FORMAT=json on a terminal, then lines stay JSON', async () => {
    const line = await firstLine(onTerminal(), { GATEHOUSE_LOG_FORMAT: 'json' });

    expect(JSON.parse(line)).toMatchObject({ msg: expect.stringMatching(LISTENING) as unknown });
  });
});

describe('JSON lines go out in blocks and none is lost or cut', () => {
  test('when 400 requests are logged and the server is stopped, then stdout holds one whole JSON line per request after the start line', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      cwd: REPO_ROOT,
      env: {
        ...inheritedEnv(),
        GATEHOUSE_DATABASE_URL: `sqlite:${fresh()}.db`,
        GATEHOUSE_PORT: '0',
        GATEHOUSE_LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 15_000;
    while (!LISTENING.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const url = LISTENING.exec(output)?.[0].replace('Server listening at ', '') ?? '';
    const paths = Array.from({ length: 400 }, (_, n) => `/health?n=${n}`);
    for (const path of paths) expect((await fetch(`${url}${path}`)).status).toBe(200);
    child.kill('SIGTERM');

    expect(await exited).toBe(0);
    const lines = output.split('\n');
    expect(lines.at(-1)).toBe('');
    const entries = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.msg === 'request' && entry.route === '/health');
    // The query string is never logged: each request shows as the path alone, one line each.
    expect(requests).toHaveLength(400);
    expect(requests.every((entry) => entry.url === '/health?[redacted]' && entry.status === 200)).toBe(true);
    const ids = requests.map((entry) => entry.reqId);
    expect(new Set(ids).size).toBe(400);
    expect(entries[0]).toMatchObject({ msg: expect.stringMatching(LISTENING) as unknown });
  });
});
