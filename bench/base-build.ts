import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/index.js';
import { createStore } from '../src/store/create-store.js';
import { migrateTo } from '../src/store/migrator.js';
import { served, VARIANTS, type Variant } from './variants.js';

const root = new URL('../..', import.meta.url).pathname;

export interface BaseBuild {
  readonly variants: Variant[];
  /** The base's built command line (dist/cli/main.js). */
  readonly cli: string;
  /** Brings a database this build seeded to the base's own schema (see buildBase). */
  readonly toBaseSchema: (databaseUrl: string) => Promise<void>;
  remove(): void;
}

/** The newest migration of a checkout: the last of its migration files. */
function newestMigration(dir: string): string {
  const names = readdirSync(join(dir, 'src/store/migrations'))
    .filter((name) => /^\d{4}-.+\.ts$/.test(name))
    .map((name) => name.replace(/\.ts$/, ''))
    .sort();
  const newest = names.at(-1);
  if (newest === undefined) throw new Error(`no migrations in ${dir}`);
  return newest;
}

/** Migrates a database down to `migration` with this build's migrations (each newer one's `down`). */
async function migrateDownTo(databaseUrl: string, migration: string): Promise<void> {
  const store = createStore(loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl }));
  try {
    await migrateTo(store.db, migration);
  } catch (error) {
    throw new Error(`could not take ${databaseUrl} back to ${migration}`, { cause: error });
  } finally {
    await store.close();
  }
}

/**
 * gatehouse as built from another revision (`--base <git ref>`, e.g. the previous main), run beside the current
 * build in the same rounds: how a change's cost is measured, on the same machine at the same time. The revision
 * is checked out into a temporary worktree, compiled with this checkout's TypeScript and dependencies, and serves
 * the same seeded databases. Those are migrated by the current code; before the base serves one, the migrations the
 * base does not have are taken down again (their `down`), so that a change of schema is measured too, and the base
 * runs with GATEHOUSE_MIGRATE=false.
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
  const schema = newestMigration(dir);
  const toBaseSchema = (databaseUrl: string) => migrateDownTo(databaseUrl, schema);
  return {
    cli,
    toBaseSchema,
    // Every variant of gatehouse itself (validation and creation, each dialect), as built from the base: with the
    // variant's own settings and set-up (plans and payout rules), the set-up done by this build's code.
    variants: VARIANTS.filter((variant) => variant.name.startsWith('gatehouse-')).map((variant) => ({
      ...variant,
      name: `${variant.name}@base`,
      description: `${variant.description}, at ${ref} (${sha})`,
      start: served(variant.dialect, variant.gatehouse, env, cli, toBaseSchema),
    })),
    remove,
  };
}
