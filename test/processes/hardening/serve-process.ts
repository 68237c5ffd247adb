import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LISTENING = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/;
const START_TIMEOUT_MS = 15_000;

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** performance.now() when the exit was seen. */
  readonly at: number;
}

export interface ServeProcess {
  readonly baseUrl: string;
  /** For raw sockets: host and port only. */
  readonly address: { readonly host: string; readonly port: number };
  readonly pid: number;
  /** stdout and stderr as written, interleaved: what an operator's log collector would keep. */
  output(): string;
  readonly exited: Promise<Exit>;
  isAlive(): boolean;
  kill(signal: NodeJS.Signals): void;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * `node dist/cli/main.js serve` on a free loopback port, with the exit observable (when and how) and the raw
 * output kept: the fault tests signal it themselves. Every process is killed after each test.
 */
export function useServeProcesses() {
  const children = new Set<ChildProcess>();
  afterEach(async () => {
    const all = [...children];
    children.clear();
    await Promise.all(
      all.map(async (child) => {
        if (child.exitCode === null && child.signalCode === null) {
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await gone;
        }
        running.delete(child);
      }),
    );
  });

  /**
   * `root`: the checkout whose build to run (default: this one), e.g. an older release's worktree. `wrap`: a command
   * that runs node with its arguments (a tracer), given first.
   */
  return function start(
    env: Record<string, string> & { GATEHOUSE_DATABASE_URL: string },
    options: { readonly root?: string; readonly wrap?: readonly string[] } = {},
  ) {
    const inherited = Object.entries(process.env).filter(
      ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
    );
    const [command = process.execPath, ...args] = [...(options.wrap ?? []), process.execPath];
    const child = spawn(command, [...args, 'dist/cli/main.js', 'serve'], {
      cwd: options.root ?? REPO_ROOT,
      env: {
        ...Object.fromEntries(inherited),
        GATEHOUSE_HOST: '127.0.0.1',
        GATEHOUSE_PORT: '0',
        GATEHOUSE_LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    running.add(child);
    let output = '';
    // Settled once stdout and stderr are drained too (so output() then holds every line), timed at the exit itself.
    const exited = new Promise<Exit>((resolve) => {
      let at: number | undefined;
      child.once('exit', () => (at = performance.now()));
      child.once('close', (code, signal) => resolve({ code, signal, at: at ?? performance.now() }));
    });
    return new Promise<ServeProcess>((resolve, reject) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
      void exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`serve ended before listening (${JSON.stringify(exit)}):\n${output}`));
      });
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = LISTENING.exec(output);
        if (match?.[1] === undefined) return;
        clearTimeout(timer);
        const url = new URL(match[1]);
        resolve({
          baseUrl: match[1],
          address: { host: url.hostname, port: Number(url.port) },
          pid: child.pid ?? -1,
          output: () => output,
          exited,
          isAlive: () => child.exitCode === null && child.signalCode === null,
          kill: (signal) => void child.kill(signal),
        });
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
    });
  };
}

/** A temporary directory for one test's SQLite file, removed after the test. */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => (dir ??= mkdtempSync(join(tmpdir(), prefix)));
}
