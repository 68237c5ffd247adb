import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm start rebuilds only what changed', () => {
  test('when the server was just built (the global setup did) and nothing changed, then the build emits no file', async () => {
    const { stdout } = await run('npx', ['tsc', '-p', 'tsconfig.build.json', '--listEmittedFiles'], {
      cwd: REPO_ROOT,
    });

    expect(stdout).toBe('');
  });
});
