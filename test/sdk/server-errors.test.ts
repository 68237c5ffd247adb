import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { arrangeCheckin } from '../fixtures/partner-api.js';
import { transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { expectRefusal, liveGatehouse } from '../fixtures/live-gatehouse.js';

const UNEXPECTED = 'There was an unexpected internal server error';

describe.each(dialects)('the SDK and the 500s (%s)', (dialect) => {
  // A genuine unexpected failure: the table behind the call is renamed away for the length of the call.
  const live = liveGatehouse(dialect);

  it('when the custom-code endpoints fail unexpectedly, then GatehouseError 500 checkin.custom-code.unexpected-error', async () => {
    const a = await live.arrange();
    const t = live.app();
    const client = live.client(a, { retries: { attempts: 1 } });
    const expected = { status: 500, key: 'checkin.custom-code.unexpected-error', message: UNEXPECTED };
    await sql`alter table custom_codes rename to custom_codes_gone`.execute(t.store.db);
    const errors = [];
    try {
      errors.push(await expectRefusal(client.createCustomCode(platformId(), 'A1'), expected));
      errors.push(await expectRefusal(client.updateCustomCode(platformId(), 'A1'), expected));
      errors.push(await expectRefusal(client.deleteCustomCode(platformId()), expected));
      errors.push(await expectRefusal(client.getCustomCode(platformId()), expected));
    } finally {
      await sql`alter table custom_codes_gone rename to custom_codes`.execute(t.store.db);
    }

    for (const error of errors) {
      expect(error.body).toEqual({
        metadata: { total: 0, errors: 1 },
        errors: [{ message: UNEXPECTED, key: 'checkin.custom-code.unexpected-error' }],
        request_id: error.requestId,
      });
    }
  });

  it('when validate fails unexpectedly, then GatehouseError 500 checkin.validation.unexpected-error and nothing is paid', async () => {
    const a = await live.arrange();
    const t = live.app();
    const checkin = await arrangeCheckin(t, a);
    await sql`alter table transactions rename to transactions_gone`.execute(t.store.db);
    try {
      await expectRefusal(live.client(a).validate({ platformId: checkin.platformId }), {
        status: 500,
        key: 'checkin.validation.unexpected-error',
        message: UNEXPECTED,
      });
    } finally {
      await sql`alter table transactions_gone rename to transactions`.execute(t.store.db);
    }
    expect(await transactionsOf(t.store, checkin.id)).toEqual([]);
  });
});

describe.each(dialects)('the SDK and the live rate limit (%s)', (dialect) => {
  const live = liveGatehouse(dialect, { GATEHOUSE_RATE_LIMIT_PER_SECOND: '1' });

  it('when a GET is rate limited, then it waits the Retry-After and succeeds', async () => {
    const a = await live.arrange();
    const client = live.client(a);
    const member = platformId();
    await client.createCustomCode(member, 'RL-1');

    const started = Date.now();
    expect((await client.getCustomCode(member)).custom_code).toBe('RL-1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('when create is rate limited, then GatehouseError 429 rate.limited, not retried', async () => {
    const a = await live.arrange();
    const client = live.client(a);
    await client.createCustomCode(platformId(), 'RL-2');
    await expectRefusal(client.createCustomCode(platformId(), 'RL-3'), {
      status: 429,
      key: 'rate.limited',
      message: 'too many requests',
    });
  });
});
