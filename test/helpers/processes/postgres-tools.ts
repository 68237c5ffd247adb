import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const COMMAND_TIMEOUT_MS = 60_000;
const run = promisify(execFile);

/** Private clusters need initdb and root (to act as the postgres user and to signal its processes). */
export const privateClusterSupported = process.getuid?.() === 0 && existsSync(join(PG_BIN, 'initdb'));

/** A PostgreSQL program (initdb, pg_ctl), run as the postgres user. */
export function asPostgres(tool: string, args: string[]) {
  return run('runuser', ['-u', 'postgres', '--', join(PG_BIN, tool), ...args], {
    timeout: COMMAND_TIMEOUT_MS,
  });
}

/** For the exit handler, where nothing asynchronous runs any more. */
export function asPostgresSync(tool: string, args: string[]): void {
  try {
    execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, tool), ...args], {
      stdio: 'ignore',
      timeout: COMMAND_TIMEOUT_MS,
    });
  } catch {
    // Best effort: the cluster may not be running.
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone: nothing to stop or resume.
  }
}

function postmasterPid(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function childrenOf(pid: number): number[] {
  try {
    const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
    return out
      .split('\n')
      .map(Number)
      .filter((child) => Number.isInteger(child) && child > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/**
 * `kill -STOP` to the postmaster first (so it forks nothing new), then to each of its children: backends,
 * checkpointer, WAL writer… Returns every pid stopped.
 */
export function stopServerProcesses(dataDir: string): number[] {
  const pid = postmasterPid(dataDir);
  if (pid === undefined) throw new Error('pause: the cluster is not running');
  signal(pid, 'SIGSTOP');
  const stopped = [pid, ...childrenOf(pid)];
  for (const child of stopped.slice(1)) signal(child, 'SIGSTOP');
  return stopped;
}

/** `kill -CONT` to the given pids and to whatever the cluster runs now (harmless when never stopped). */
export function continueServerProcesses(dataDir: string, stopped: readonly number[]): void {
  const pid = postmasterPid(dataDir);
  const current = pid === undefined ? [] : [pid, ...childrenOf(pid)];
  for (const target of new Set([...stopped, ...current])) signal(target, 'SIGCONT');
}
