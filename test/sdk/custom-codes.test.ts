import { describe, expect, it } from 'vitest';
import { platformId } from '../fixtures/factories.js';
import { customCodeRow } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { expectRefusal, liveGatehouse } from '../fixtures/live-gatehouse.js';

const CODE_LENGTH = {
  status: 400,
  key: 'custom_code',
  message: 'length must be between 1 and 13 characters',
};
const CODE_NOT_FOUND = {
  status: 404,
  key: 'checkin.custom-code.not-found',
  message: 'Custom code not found in database',
};

describe.each(dialects)('the SDK’s custom-code calls against a live gatehouse (%s)', (dialect) => {
  const live = liveGatehouse(dialect);

  it('when a code is created, then getCustomCode reads it back', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = live.client(a);

    await client.createCustomCode(member, '4321');

    expect(await client.getCustomCode(member)).toEqual({
      platform_id: member,
      custom_code: '4321',
      updated_at: '2026-03-02T12:00:00.000Z',
    });
  });

  it('when a code already exists, then create is GatehouseError 409 checkin.custom-code.already-exists', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = live.client(a);
    await client.createCustomCode(member, '4321');
    await expectRefusal(client.createCustomCode(member, '9999'), {
      status: 409,
      key: 'checkin.custom-code.already-exists',
      message: 'Already exists a custom code for that gym and user',
    });
    expect((await customCodeRow(live.app().store, a.gym.id, member))?.code).toBe('4321');
  });

  it('when the code is too long, then create and update are GatehouseError 400 custom_code', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = live.client(a);
    await expectRefusal(client.createCustomCode(member, '12345678901234'), CODE_LENGTH);
    await client.createCustomCode(member, 'OK');
    await expectRefusal(client.updateCustomCode(member, ''), CODE_LENGTH);
    expect((await customCodeRow(live.app().store, a.gym.id, member))?.code).toBe('OK');
  });

  it('when a code exists, then update replaces it', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = live.client(a);
    await client.createCustomCode(member, 'OLD');
    live.app().clock.advance(60_000);

    await client.updateCustomCode(member, 'NEW');

    expect(await client.getCustomCode(member)).toEqual({
      platform_id: member,
      custom_code: 'NEW',
      updated_at: '2026-03-02T12:01:00.000Z',
    });
  });

  it('when no code exists, then update, delete and get are GatehouseError 404 checkin.custom-code.not-found', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = live.client(a);
    await expectRefusal(client.updateCustomCode(member, 'NEW'), CODE_NOT_FOUND);
    await expectRefusal(client.deleteCustomCode(member), CODE_NOT_FOUND);
    await expectRefusal(client.getCustomCode(member), CODE_NOT_FOUND);
    expect(await customCodeRow(live.app().store, a.gym.id, member)).toBeUndefined();
  });

  it('when a code exists, then delete removes it', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = live.client(a);
    await client.createCustomCode(member, 'GONE');

    await client.deleteCustomCode(member);

    expect(await customCodeRow(live.app().store, a.gym.id, member)).toBeUndefined();
  });

  it('when the path platform id is not 13 digits, then delete is GatehouseError 400 platform_id', async () => {
    const a = await live.arrange();
    await expectRefusal(live.client(a).deleteCustomCode('12AB'), {
      status: 400,
      key: 'platform_id',
      message: 'must be a string of 13 digits',
    });
  });
});
