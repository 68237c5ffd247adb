import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../../sdk/src/index.js';
import { platformId } from '../fixtures/factories.js';
import { EXPLICIT_DENY, UNAUTHORIZED } from '../fixtures/partner-api.js';
import { dialects } from '../fixtures/test-app.js';
import { expectRefusal, liveGatehouse } from '../fixtures/live-gatehouse.js';

describe.each(dialects)('the SDK’s typed auth errors against a live gatehouse (%s)', (dialect) => {
  const live = liveGatehouse(dialect);

  const calls = {
    validate: (c: ReturnType<typeof live.client>) => c.validate({ platformId: platformId() }),
    createCustomCode: (c: ReturnType<typeof live.client>) => c.createCustomCode(platformId(), 'A1'),
    updateCustomCode: (c: ReturnType<typeof live.client>) => c.updateCustomCode(platformId(), 'A1'),
    deleteCustomCode: (c: ReturnType<typeof live.client>) => c.deleteCustomCode(platformId()),
    getCustomCode: (c: ReturnType<typeof live.client>) => c.getCustomCode(platformId()),
    listTransactions: (c: ReturnType<typeof live.client>) => c.listTransactions(),
  };

  it.each(Object.entries(calls))(
    'when the key is not valid, then %s is GatehouseError 403 key forbidden with the Message body',
    async (_name, call) => {
      const a = await live.arrange();
      const error = await expectRefusal(call(live.client(a, { apiKey: `${a.key}x` })), {
        status: 403,
        key: 'forbidden',
        message: EXPLICIT_DENY.Message,
      });
      expect(error.body).toEqual(EXPLICIT_DENY);
    },
  );

  it.each(Object.entries(calls))(
    'when the key is empty, then %s is GatehouseError 401 key unauthorized',
    async (_name, call) => {
      const a = await live.arrange();
      const error = await expectRefusal(call(live.client(a, { apiKey: '' })), {
        status: 401,
        key: 'unauthorized',
        message: 'Unauthorized',
      });
      expect(error.body).toEqual(UNAUTHORIZED);
    },
  );

  it('when the gym is another partner’s, then GatehouseError 403 forbidden', async () => {
    const a = await live.arrange();
    const other = await live.arrange();
    const error = await expectRefusal(
      live.client(a, { gymId: other.gym.id }).validate({ platformId: platformId() }),
      { status: 403, key: 'forbidden', message: EXPLICIT_DENY.Message },
    );
    expect(error).toBeInstanceOf(GatehouseError);
  });

  it('when the gym id is malformed, then GatehouseError 400 X-Gym-Id', async () => {
    const a = await live.arrange();
    await expectRefusal(live.client(a, { gymId: '0' }).getCustomCode(platformId()), {
      status: 400,
      key: 'X-Gym-Id',
      message: 'must be a positive integer',
    });
  });
});
