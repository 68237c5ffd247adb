import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';

export interface RunningServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Samples of resident memory (MiB), taken every 250 ms while it runs. */
  readonly rss: number[];
  stop(): Promise<void>;
}

function rssMiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc; with `servingThread`, only its main thread's
 * (the thread whose id is the process's: the one that answers requests).
 */
export function cpuSeconds(pid: number, servingThread = false): number {
  return statCpuSeconds(
    readFileSync(servingThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8'),
  );
}

/** The command name of a /proc `stat` line (in parentheses, and it may hold some). */
const statName = (stat: string): string => stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));

/** utime + stime of a /proc `stat` line, in seconds. */
function statCpuSeconds(stat: string): number {
  // The command name in parentheses may hold spaces and parentheses: the fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds so far of the machine's PostgreSQL server processes that are running (the bench's pooled
 * connections stay open through a run, so what they spent during it is in the difference of two readings).
 */
export function postgresCpuSeconds(): number {
  let seconds = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (statName(stat) === 'postgres') seconds += statCpuSeconds(stat);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return seconds;
}

/** CPU seconds so far of each of a process's threads: its serving thread, the others by name and id. */
export function cpuByThread(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = statName(stat);
      byThread.set(tid === String(pid) ? 'serving' : `${name}#${tid}`, statCpuSeconds(stat));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byThread;
}

const children = new Set<ChildProcess>();
// A bench stopped half-way (Ctrl-C, a failed run) leaves no server behind holding a port and a core.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
process.once('SIGINT', () => process.exit(130));

/** Starts a server process and waits (bounded) for the line that tells its port. */
export async function startServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<RunningServer> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output.slice(-2000)}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)|Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        // From here on the server's own output (its request log, as shipped) is drained, not kept.
        output = '';
        resolve(match[1] ?? match[2] ?? '');
      } else if (output.length > 100_000) output = output.slice(-10_000);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output.slice(-2000)}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  // BENCH_SERVER_OUTPUT=file keeps the server's output (a --trace-gc run, say); otherwise it is drained.
  const kept = process.env['BENCH_SERVER_OUTPUT'];
  if (kept === undefined) {
    child.stdout.resume();
    child.stderr.resume();
  } else {
    const sink = createWriteStream(kept, { flags: 'a' });
    child.stdout.pipe(sink);
    child.stderr.pipe(sink);
  }
  const rss: number[] = [];
  const sampler = setInterval(() => {
    const value = child.pid === undefined ? undefined : rssMiB(child.pid);
    if (value !== undefined) rss.push(value);
  }, 250);
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    rss,
    async stop() {
      clearInterval(sampler);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  mean: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
  statusCodes?: Record<string, { count?: number }>;
  used: number;
  /** When the load began and ended (Unix ms). */
  start: number;
  end: number;
}

/** Runs the load generator in its own process and returns its result. */
export async function runLoad(args: string[]): Promise<LoadResult> {
  const child = spawn(process.execPath, [new URL('./load.js', import.meta.url).pathname, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`load generator failed (${code})`);
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as LoadResult;
}
