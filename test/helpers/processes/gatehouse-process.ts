import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = 'dist/cli/main.js';
const LISTENING = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/;
const START_TIMEOUT_MS = 15_000;
const TERM_GRACE_MS = 5_000;
const KILL_WAIT_MS = 2_000;

export interface GatehouseProcess {
  readonly baseUrl: string;
  readonly pid: number;
  /** Every stdout line pino wrote, parsed (lines that are not JSON are kept as `{ text }`). */
  logs(): Record<string, unknown>[];
  stderr(): string;
  /** False once the process has exited, for whatever reason. */
  isAlive(): boolean;
  /** SIGTERM, then SIGKILL after a bound; resolves with how it ended. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
// A crashed test worker must not leave servers behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function terminate(child: ChildProcess) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    if (!(await exited(child, TERM_GRACE_MS))) {
      child.kill('SIGKILL');
      await exited(child, KILL_WAIT_MS);
    }
  }
  running.delete(child);
  return { code: child.exitCode, signal: child.signalCode };
}

/** The environment of the child: the test's own, without any GATEHOUSE_* setting or loader of the test runner. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
  );
  return {
    ...Object.fromEntries(inherited),
    GATEHOUSE_HOST: '127.0.0.1',
    GATEHOUSE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'info',
    ...env,
  };
}

export interface SpawnOptions {
  /**
   * Resolve only once serve has logged "migrations applied" (default): until then it answers the APIs with 503,
   * while `/ready` may already say 200 when another process migrated the database. False: resolve on listening.
   */
  readonly waitForMigrations?: boolean;
  /**
   * Run in this directory instead of the checkout, with no GATEHOUSE_DATABASE_URL required: the default database
   * (./data/gatehouse.db, where `npm start` seeds its demo) is then this directory's own.
   */
  readonly cwd?: string;
}

type GatehouseEnv = Record<string, string> & { GATEHOUSE_DATABASE_URL: string };

function parseLine(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { text };
  }
}

/**
 * `node dist/cli/main.js serve`, exactly as an operator runs it, on a free port. Resolves once pino has logged
 * the address it listens on (and, by default, that migrations are applied); rejects (and kills the child) if it
 * exits first or takes longer than the bound.
 */
export function spawnGatehouse(env: GatehouseEnv | Record<string, string>, options: SpawnOptions = {}) {
  if (env.GATEHOUSE_DATABASE_URL === undefined && options.cwd === undefined) {
    // The checkout's own ./data/gatehouse.db is the developer's: a test names its database or its directory.
    throw new Error('spawnGatehouse: give GATEHOUSE_DATABASE_URL, or a cwd whose default database to use');
  }
  const child = spawn(process.execPath, [join(REPO_ROOT, CLI), 'serve'], {
    cwd: options.cwd ?? REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const awaitMigrations = options.waitForMigrations !== false && env.GATEHOUSE_MIGRATE !== 'false';
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let pending = '';
  let baseUrl: string | undefined;
  let migrated = false;
  let serving = false;
  return new Promise<GatehouseProcess>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void terminate(child).then(() =>
        reject(
          new Error(
            `gatehouse serve ${reason}\nstdout:\n${JSON.stringify(lines)}${pending}\nstderr:\n${stderr}`,
          ),
        ),
      );
    };
    const timer = setTimeout(() => fail(`was not serving within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('exit', (code, signal) => fail(`exited before serving (code ${code}, signal ${signal})`));
    child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      for (const line of complete.filter(Boolean).map(parseLine)) {
        lines.push(line);
        const msg = typeof line.msg === 'string' ? line.msg : '';
        baseUrl ??= LISTENING.exec(msg)?.[1];
        migrated ||= msg === 'migrations applied';
      }
      if (serving || baseUrl === undefined || (awaitMigrations && !migrated)) return;
      serving = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        baseUrl,
        pid: child.pid ?? -1,
        logs: () => [...lines],
        stderr: () => stderr,
        isAlive: () => child.exitCode === null && child.signalCode === null,
        stop: () => terminate(child),
      });
    });
  });
}

/**
 * A `spawnGatehouse` whose processes are all stopped after each test (and after the file, should a hook fail),
 * so no test leaves a server running; with `'file'`, only after the file, for the tests of a file to share one.
 */
export function useGatehouseProcesses(scope: 'test' | 'file' = 'test'): typeof spawnGatehouse {
  const started = new Set<Promise<GatehouseProcess>>();
  const stopAll = async () => {
    const all = [...started];
    started.clear();
    await Promise.all(all.map((p) => p.then((server) => server.stop()).catch(() => undefined)));
  };
  if (scope === 'test') afterEach(stopAll);
  afterAll(stopAll);
  return (env, options) => {
    const server = spawnGatehouse(env, options);
    started.add(server);
    return server;
  };
}
