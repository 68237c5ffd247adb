import type { Config } from '../config/index.js';
import type { Services } from '../services/index.js';
import type { Store } from '../store/store.js';
import { assertDatabaseAccepts, assertSqliteFileExists } from './database-check.js';

/**
 * Runs an operator command over the same services as the operator API, on the configured database (migrated
 * first unless GATEHOUSE_MIGRATE=false), and closes everything afterwards. Only `migrate` (`options.migrate`)
 * may create the database; every other command needs it to exist. The configuration, the store and the
 * services are loaded here, on first use, so `--help` and a usage error never pay for them.
 */
export async function withServices<T>(
  run: (
    services: Services,
    config: Config,
    migrated: boolean,
    notes: readonly string[],
    store: Store,
  ) => Promise<T>,
  options: { readonly migrate?: boolean } = {},
): Promise<T> {
  const [{ loadConfig }, { systemClock }, { createServices }, { createStore }] = await Promise.all([
    import('../config/index.js'),
    import('../domain/clock.js'),
    import('../services/index.js'),
    import('../store/create-store.js'),
  ]);
  const config = loadConfig();
  if (options.migrate !== true) assertSqliteFileExists(config.databaseUrl);
  const store = createStore(config);
  try {
    await assertDatabaseAccepts(store, config.databaseUrl);
  } catch (error) {
    await store.close();
    throw error;
  }
  const services = createServices({ store, clock: systemClock, config });
  try {
    // `migrated`: whether this call applied any migration (for `migrate` to say so). `migrate` itself always runs
    // the store's migrate, which also makes a restored database continue (README, "Backups and upgrades").
    const pending = (options.migrate === true || config.migrate) && !(await store.isReady());
    const notes = pending || options.migrate === true ? await store.migrate() : [];
    return await run(services, config, pending, notes, store);
  } finally {
    await services.apiKeys.close();
    await store.close();
  }
}
