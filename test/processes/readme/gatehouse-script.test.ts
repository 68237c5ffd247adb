import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { NEWEST_MIGRATION } from '../../../src/services/release.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

describe('./gatehouse, the command the README runs', () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'gatehouse-elsewhere-'));
  afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

  test('when it is run by its path from another directory, then it runs the build beside it', async () => {
    const result = await run(join(REPO_ROOT, 'gatehouse'), ['--version'], { cwd: elsewhere });

    // The version, the commit (git's: the repository is found from the script's own directory) and the newest
    // migration of the build.
    expect(result).toEqual({
      stdout: expect.stringMatching(
        new RegExp(
          `^${version.replaceAll('.', '\\.')} \\(commit [0-9a-f]{12}, migration ${NEWEST_MIGRATION}\\)\\n$`,
        ),
      ) as unknown,
      stderr: '',
    });
  });

  test('when there is no build beside it, then it says how to make one, and runs nothing else', async () => {
    copyFileSync(join(REPO_ROOT, 'gatehouse'), join(elsewhere, 'gatehouse'));

    const failure = await run('./gatehouse', ['--version'], { cwd: elsewhere }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

    expect(failure).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `gatehouse: not built yet: run 'npm install && npm run build' in . first\n`,
    });
  });
});
