import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { served, VARIANTS, type Variant } from './variants.js';

const root = new URL('../..', import.meta.url).pathname;

export interface BaseBuild {
  readonly variants: Variant[];
  /** The base's built command line (dist/cli/main.js). */
  readonly cli: string;
  remove(): void;
}

/**
 * gatehouse as built from another revision (`--base <git ref>`, e.g. the previous main), run beside the current
 * build in the same rounds: how a change's cost is measured, on the same machine at the same time. The revision
 * is checked out into a temporary worktree, compiled with this checkout's TypeScript and dependencies, and serves
 * the same seeded databases. Those are migrated by the current code, so it runs with GATEHOUSE_MIGRATE=false:
 * migrations only add, and an earlier release works on a later schema.
 */
export function buildBase(ref: string): BaseBuild {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-base-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--short', ref);
  git('worktree', 'add', '--detach', dir, ref);
  const remove = () => {
    git('worktree', 'remove', '--force', dir);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.build.json')],
      {
        stdio: 'inherit',
      },
    );
    // A revision that bundles its command line (dist/cli/main.js) does so after tsc.
    if (existsSync(join(dir, 'rolldown.config.ts')))
      execFileSync(
        process.execPath,
        [join(root, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.ts', '--logLevel', 'warn'],
        { cwd: dir, stdio: 'ignore' },
      );
  } catch (error) {
    remove();
    throw error;
  }
  const cli = join(dir, 'dist/cli/main.js');
  const env = { GATEHOUSE_MIGRATE: 'false' };
  return {
    cli,
    // Every variant of gatehouse itself (validation and creation, each dialect), as built from the base: with the
    // variant's own settings and set-up (plans and payout rules), the set-up done by this build's code.
    variants: VARIANTS.filter((variant) => variant.name.startsWith('gatehouse-')).map((variant) => ({
      ...variant,
      name: `${variant.name}@base`,
      description: `${variant.description}, at ${ref} (${sha})`,
      start: served(variant.dialect, variant.gatehouse, env, cli),
    })),
    remove,
  };
}
