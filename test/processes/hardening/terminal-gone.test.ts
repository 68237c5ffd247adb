import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The process's state letter from /proc (Z: ended, waiting for its parent), or undefined once it is gone. */
function state(pid: number): string | undefined {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** The one child of `pid` (script's), once it is there. */
async function childOf(pid: number): Promise<number> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (children !== '') return Number(children.split(' ')[0]);
    await sleep(50);
  }
  throw new Error(`no child of ${pid}`);
}

describe('serve on a terminal that goes away', () => {
  const started: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('when the terminal of a serve disappears (its pseudo-terminal closed), then the process ends within seconds instead of spinning at full CPU for ever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-terminal-'));
    dirs.push(dir);
    // script(1) gives serve a pseudo-terminal as its controlling terminal, stdout and stderr; killing script closes it.
    const terminal = spawn(
      'script',
      ['-q', '-c', `exec "${process.execPath}" dist/cli/main.js serve`, '/dev/null'],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          GATEHOUSE_DATABASE_URL: `sqlite:${join(dir, 'gatehouse.db')}`,
          GATEHOUSE_HOST: '127.0.0.1',
          GATEHOUSE_PORT: '0',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    started.push(terminal);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 20_000);
      terminal.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Server listening at')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const serve = await childOf(terminal.pid ?? -1);
    expect(readFileSync(`/proc/${serve}/cmdline`, 'utf8')).toContain('serve');

    terminal.kill('SIGKILL');
    let ended = false;
    for (let waited = 0; waited < 10_000 && !ended; waited += 100) {
      await sleep(100);
      const now = state(serve);
      ended = now === undefined || now === 'Z';
    }
    if (!ended) process.kill(serve, 'SIGKILL');

    expect(ended, 'serve ended once its terminal was gone').toBe(true);
  });
});
