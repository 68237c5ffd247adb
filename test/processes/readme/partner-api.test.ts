import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { systemClock } from '../../../src/domain/clock.js';
import { createServices } from '../../../src/services/index.js';
import { bashSession } from '../../fixtures/processes/bash-session.js';
import { gatehouse, openStore, useTempDir } from '../../fixtures/processes/cli.js';
import { useServeProcesses } from '../../fixtures/processes/serve-process.js';
import { readmeSection } from './readme-section.js';

const SECTION = readmeSection('## The partner API');
const blocks = (language: string) =>
  [...SECTION.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');

function cleanEnv(): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('GATEHOUSE_') && name !== 'NODE_OPTIONS',
  );
  return Object.fromEntries(inherited);
}

/**
 * The README's "The partner API" opening: its integration check, pasted into bash with `$KEY` set, against a
 * `gatehouse serve` holding the network its sample answer describes. The only edit is the port.
 */
describe('README "The partner API", the integration check followed literally', () => {
  const dir = useTempDir();
  const start = useServeProcesses();
  let session: ReturnType<typeof bashSession>;
  let prefix: string;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = `sqlite:${join(dir(), 'partner-api.db')}`;
    expect((await gatehouse(['migrate'], { GATEHOUSE_DATABASE_URL: databaseUrl })).code).toBe(0);
    const config = loadConfig({ GATEHOUSE_DATABASE_URL: databaseUrl, GATEHOUSE_LOG_LEVEL: 'silent' });
    const store = openStore(databaseUrl);
    const services = createServices({ store, clock: systemClock, config });
    const partner = await services.catalog.createPartner('Acme Fitness');
    await services.catalog.createGym({
      id: 1,
      partnerId: partner.id,
      name: 'Acme Downtown',
      timezone: 'America/Sao_Paulo',
    });
    await services.catalog.createGym({ id: 2, partnerId: partner.id, name: 'Acme Uptown' });
    const issued = await services.apiKeys.issue(partner.id, { label: 'front desk', gymIds: [1] });
    prefix = issued.key.prefix;
    await services.apiKeys.close();
    await store.close();
    session = bashSession(dir(), { ...cleanEnv(), KEY: issued.secret });
  });
  afterAll(() => session.close());

  test('when the block is run with a fresh key, then it prints the answer the README shows', async () => {
    const [check = ''] = blocks('sh');
    const [shown = ''] = blocks('json');
    const server = await start({ GATEHOUSE_DATABASE_URL: databaseUrl });

    expect(check).toContain('127.0.0.1:8080');
    const printed = await session.run(check.replaceAll('127.0.0.1:8080', `127.0.0.1:${server.address.port}`));

    expect(printed.stderr).toBe('');
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(shown.replace('ghk_3f9c2a71', prefix)));
  });
});
