import { loadConfig, type Config } from '../config.js';
import { systemClock } from '../domain/clock.js';
import { createServices, type Services } from '../services/index.js';
import { createStore } from '../store/create-store.js';

/**
 * Runs an operator command over the same services as the operator API, on the configured database (migrated
 * first unless GATEHOUSE_MIGRATE=false), and closes everything afterwards.
 */
export async function withServices<T>(run: (services: Services, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = createStore(config);
  const services = createServices({ store, clock: systemClock, config });
  try {
    if (config.migrate) await store.migrate();
    return await run(services, config);
  } finally {
    await services.apiKeys.close();
    await store.close();
  }
}
