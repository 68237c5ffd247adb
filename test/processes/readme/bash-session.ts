import { spawn } from 'node:child_process';

export interface BlockResult {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * One bash, fed a README's blocks one at a time as a person pastes them into one terminal: variables and
 * background jobs carry over from block to block. `set -euo pipefail`, so a failing command ends the session
 * (and the test) instead of being skipped over.
 */
export function bashSession(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn('bash', ['--noprofile', '--norc'], {
    cwd,
    env,
    detached: true, // its own process group: the background server goes with it
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  child.stdin.write('set -euo pipefail\n');
  let blocks = 0;

  return {
    /** Runs one block; resolves with what it printed once it is done, rejects if bash exits or it takes too long. */
    run(block: string, timeoutMs = 30_000): Promise<BlockResult> {
      blocks += 1;
      const marker = `::block ${blocks} done::\n`;
      const [outFrom, errFrom] = [stdout.length, stderr.length];
      child.stdin.write(`${block}\necho '${marker.trim()}'\n`);
      return new Promise((resolve, reject) => {
        const finish = (error?: Error) => {
          clearInterval(poll);
          clearTimeout(timer);
          child.off('exit', onExit);
          if (error !== undefined) reject(error);
          else
            resolve({
              stdout: stdout.slice(outFrom, stdout.indexOf(marker, outFrom)),
              stderr: stderr.slice(errFrom),
            });
        };
        const context = () =>
          `\nblock:\n${block}\nstdout:\n${stdout.slice(outFrom)}\nstderr:\n${stderr.slice(errFrom)}`;
        const onExit = (code: number | null) =>
          finish(new Error(`bash exited (code ${code}) in a block${context()}`));
        const poll = setInterval(() => {
          if (stdout.includes(marker, outFrom)) finish();
        }, 50);
        const timer = setTimeout(
          () => finish(new Error(`a block took over ${timeoutMs} ms${context()}`)),
          timeoutMs,
        );
        child.once('exit', onExit);
      });
    },
    /** Ends bash and everything it started. */
    close(): void {
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    },
  };
}
