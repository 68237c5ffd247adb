import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { admitMember } from '../../sdk/examples/validate.js';
import { GatehouseError } from '../../sdk/src/index.js';
import { platformId } from '../fixtures/factories.js';
import { arrangeCheckin } from '../fixtures/partner-api.js';
import { transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { liveGatehouse, rejectionOf } from '../fixtures/live-gatehouse.js';

const root = new URL('../../', import.meta.url);

/** The lines of sdk/examples/validate.ts between its README markers, unindented. */
function exampleLines(): string[] {
  const source = readFileSync(new URL('sdk/examples/validate.ts', root), 'utf8').split('\n');
  const begin = source.findIndex((line) => line.trim() === '// README:begin');
  const end = source.findIndex((line) => line.trim() === '// README:end');
  return source.slice(begin + 1, end).map((line) => line.replace(/^ {2}/, ''));
}

/** The TypeScript block of the README's "Client SDK" section. */
function readmeBlock(): string[] {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const section = readme.slice(readme.indexOf('## Client SDK'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.trimEnd().split('\n');
}

describe('the README’s Client SDK example', () => {
  it('when the README quotes it, then it is the five lines of sdk/examples/validate.ts, imported from the package', () => {
    const lines = exampleLines();
    const packageName = (
      JSON.parse(readFileSync(new URL('sdk/package.json', root), 'utf8')) as { name: string }
    ).name;
    expect(lines).toHaveLength(5);
    expect(readmeBlock()).toEqual([`import { GatehouseClient } from '${packageName}';`, '', ...lines]);
  });
});

describe.each(dialects)('the README’s Client SDK example, run (%s)', (dialect) => {
  const live = liveGatehouse(dialect);

  it('when the member has a check-in, then it is validated and greeted with the plan', async () => {
    const a = await live.arrange({ description: 'Day pass' });
    const checkin = await arrangeCheckin(live.app(), a);

    const { result, greeting } = await admitMember(live.url(), a.key, a.gym.id, checkin.platformId);

    expect(greeting).toBe('Welcome! Enjoy your Day pass.');
    expect(result).toMatchObject({
      status: 'validated',
      details: { user: { platform_id: checkin.platformId } },
    });
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
  });

  it('when the member has no check-in, then it throws GatehouseError checkin.validation.notfound', async () => {
    const a = await live.arrange();
    const error = await rejectionOf(admitMember(live.url(), a.key, a.gym.id, platformId()));
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ status: 404, key: 'checkin.validation.notfound' });
  });
});
