import closeWithGrace from 'close-with-grace';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { curlValidateLine, seedDemo } from '../services/demo.js';
import type { Services } from '../services/index.js';
import { createStore } from '../store/create-store.js';

const SHUTDOWN_GRACE_MS = 10_000;

/** On the default database only, and only when it is empty: seed the demo and say how to try it. */
async function demoBanner(config: Config, services: Services, baseUrl: string): Promise<string | undefined> {
  if (!config.databaseUrlIsDefault) return undefined;
  if (!(await services.catalog.isEmpty())) {
    return `gatehouse is serving ${baseUrl}. For a fresh demo check-in and key: npx gatehouse demo\n`;
  }
  const demo = await seedDemo(services);
  return (
    `\ngatehouse is serving ${baseUrl} on ${config.databaseUrl}, seeded with a demo partner.\n` +
    `Validate the demo check-in (it expires in ${Math.round(config.checkinTtlSeconds / 60)} minutes):\n\n` +
    `  ${curlValidateLine(baseUrl, demo)}\n\n` +
    `A fresh one later: npx gatehouse demo\n`
  );
}

/** `gatehouse serve`: migrate (unless told not to), listen, and drain cleanly on SIGTERM/SIGINT. */
export async function serve(config: Config): Promise<void> {
  const store = createStore(config);
  if (config.migrate) await store.migrate();
  const { server, services } = await buildApp({ config, store });
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ err, signal }) => {
    if (err !== undefined) server.log.error({ err }, 'shutting down after an error');
    else server.log.info({ signal }, 'shutting down');
    await server.close();
    await store.close();
  });
  await server.listen({ host: config.host, port: config.port });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const banner = await demoBanner(config, services, `http://${host}:${port}`);
  if (banner !== undefined) process.stdout.write(banner);
}
