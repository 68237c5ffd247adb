import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './stats.js';

/**
 * `npm run bench:cli [-- --runs 15]`: how long one `gatehouse` call takes, start to exit, as an operator's shell
 * sees it. `--help` must not load the server, the configuration or the store; an operator command loads the
 * configuration and the store only. Prints the median of each case beside its goal; exits 1 over a goal.
 */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' } } });
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-bench-'));
const env = {
  ...process.env,
  GATEHOUSE_DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  GATEHOUSE_LOG_LEVEL: 'silent',
};

function call(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, ['dist/cli/main.js', ...args], { env, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const CASES = [
  { name: 'gatehouse --help', args: ['--help'], goalMs: 300 },
  { name: 'gatehouse --version', args: ['--version'], goalMs: 300 },
  { name: 'gatehouse partner list (SQLite)', args: ['partner', 'list'], goalMs: 600 },
] as const;

try {
  call(['migrate']);
  call(['partner', 'create', 'Bench Fitness']);
  let over = 0;
  process.stdout.write(`| call | median ms (${runs} runs) | goal ms |\n| --- | --- | --- |\n`);
  for (const { name, args, goalMs } of CASES) {
    call(args); // warm the file-system cache
    const ms = median(Array.from({ length: runs }, () => call(args)));
    if (ms > goalMs) over += 1;
    process.stdout.write(`| ${name} | ${Math.round(ms)} | ${goalMs}${ms > goalMs ? ' (over)' : ''} |\n`);
  }
  process.exitCode = over === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
