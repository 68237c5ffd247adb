import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEWEST_MIGRATION } from '../services/release.js';
import { VERSION } from '../config/version.js';

/** Written by `npm run build` (src/cli/build-info.ts) beside the compiled CLI, when git could tell the commit. */
const BUILD_INFO = new URL('../build-info.json', import.meta.url);
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The commit of this build: the checkout's own when it runs in one (a build record could be older than a later
 * `tsc`), else the record `npm run build` left, else unknown.
 */
function commit(): string {
  const fromGit = gitCommit();
  if (fromGit !== undefined) return fromGit;
  try {
    return (JSON.parse(readFileSync(BUILD_INFO, 'utf8')) as { commit: string }).commit;
  } catch {
    return 'unknown';
  }
}

/** The checkout's commit, short; undefined outside a git checkout of gatehouse itself (an installed package). */
export function gitCommit(): string | undefined {
  if (!existsSync(join(CHECKOUT, '.git'))) return undefined;
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: CHECKOUT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** What `gatehouse --version` prints: the package version, the commit and the newest migration. */
export function versionLine(): string {
  return `${VERSION} (commit ${commit()}, migration ${NEWEST_MIGRATION})`;
}
