import { afterEach, describe, expect, it } from 'vitest';
import { GatehouseClient, OutcomeUnknownError } from '../../sdk/src/index.js';
import { platformId, type Arranged } from '../fixtures/factories.js';
import { arrangeCheckin } from '../fixtures/partner-api.js';
import { checkinRow, customCodeRow, transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { expectRefusal, liveGatehouse, rejectionOf } from '../fixtures/live-gatehouse.js';
import { startLossyProxy, type LocalServer, type ProxyPlan } from './servers.js';

/*
 * A live gatehouse behind a proxy that loses what each test says: the answer to the first request (the server
 * acted, the client never hears), or the first request itself. The store says what really happened.
 */
describe.each(dialects)('the SDK when an answer is lost (%s)', (dialect) => {
  const live = liveGatehouse(dialect);
  let proxy: LocalServer | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  async function behindProxy(a: Arranged, plan: (n: number) => ProxyPlan, timeoutMs = 2000) {
    proxy = await startLossyProxy(live.url(), plan);
    return new GatehouseClient({
      baseUrl: proxy.url,
      apiKey: a.key,
      gymId: a.gym.id,
      timeoutMs,
      retries: { attempts: 3, delayMs: 10 },
    });
  }
  const firstOnly = (step: ProxyPlan) => (n: number) => (n === 1 ? step : 'forward');

  it('when validate’s answer is lost and no retry is asked, then OutcomeUnknownError — and it was validated', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    const client = await behindProxy(a, firstOnly('lose-answer'));

    const error = await rejectionOf(client.validate({ platformId: checkin.platformId }));

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'network', attempts: 1 });
    expect(proxy?.requests).toHaveLength(1);
    expect((await checkinRow(live.app().store, checkin.id)).status).toBe('validated');
  });

  it('when validate’s answer is lost and retry is asked, then the re-send reads as validated-earlier', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    const client = await behindProxy(a, firstOnly('lose-answer'));

    const result = await client.validate(
      { platformId: checkin.platformId, customCode: 'QR-9' },
      { retry: { attempts: 3, delayMs: 20 } },
    );

    expect(result).toEqual({ status: 'validated-earlier' });
    expect(proxy?.requests).toHaveLength(2);
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
    expect((await customCodeRow(live.app().store, a.gym.id, checkin.platformId))?.code).toBe('QR-9');
  });

  it('when validate times out while the server validates, then the retry reads validated-earlier', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    // Each attempt's timeout is the retry's too: long enough for a validation on a loaded machine.
    const client = await behindProxy(a, firstOnly('hold-answer'), 2000);

    const result = await client.validate(
      { platformId: checkin.platformId },
      { retry: { attempts: 2, delayMs: 0 } },
    );

    expect(result).toEqual({ status: 'validated-earlier' });
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
  });

  it('when validate’s request never arrived, then the retry validates it, with the details', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    const client = await behindProxy(a, firstOnly('drop-request'));

    const result = await client.validate(
      { platformId: checkin.platformId },
      { retry: { attempts: 3, delayMs: 0 } },
    );

    expect(result).toEqual({
      status: 'validated',
      details: {
        user: { platform_id: checkin.platformId },
        gym: { Id: a.gym.id, product: { Id: a.product.id, description: a.product.description } },
        validated_at: '2026-03-02T12:00:00Z',
      },
    });
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
  });

  it('when every attempt goes unanswered, then OutcomeUnknownError counts them all', async () => {
    const a = await live.arrange();
    const checkin = await arrangeCheckin(live.app(), a);
    const client = await behindProxy(a, () => 'lose-answer');

    const error = await rejectionOf(
      client.validate({ platformId: checkin.platformId }, { retry: { attempts: 3, delayMs: 0 } }),
    );

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'network', attempts: 3 });
    expect(proxy?.requests).toHaveLength(3);
    expect(await transactionsOf(live.app().store, checkin.id)).toHaveLength(1);
  });

  it('when the re-send finds no check-in, then that refusal is thrown, not swallowed', async () => {
    const a = await live.arrange();
    const client = await behindProxy(a, firstOnly('drop-request'));
    await expectRefusal(
      client.validate({ platformId: platformId() }, { retry: { attempts: 2, delayMs: 0 } }),
      {
        status: 404,
        key: 'checkin.validation.notfound',
        message: 'Check-In not found in database',
      },
    );
  });

  it('when DELETE’s answer is lost, then the re-send’s 404 counts as deleted', async () => {
    const a = await live.arrange();
    const member = platformId();
    await live.client(a).createCustomCode(member, 'BYE');
    const client = await behindProxy(a, firstOnly('lose-answer'));

    await client.deleteCustomCode(member);

    expect(proxy?.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
    expect(await customCodeRow(live.app().store, a.gym.id, member)).toBeUndefined();
  });

  it('when PUT’s answer is lost, then it is re-sent and the code is the new one', async () => {
    const a = await live.arrange();
    const member = platformId();
    await live.client(a).createCustomCode(member, 'OLD');
    const client = await behindProxy(a, firstOnly('lose-answer'));

    await client.updateCustomCode(member, 'NEW');

    expect(proxy?.requests).toHaveLength(2);
    expect((await customCodeRow(live.app().store, a.gym.id, member))?.code).toBe('NEW');
  });

  it('when create’s answer is lost, then OutcomeUnknownError, no re-send, and the code exists', async () => {
    const a = await live.arrange();
    const member = platformId();
    const client = await behindProxy(a, firstOnly('lose-answer'));

    const error = await rejectionOf(client.createCustomCode(member, 'NEW'));

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(proxy?.requests).toHaveLength(1);
    expect((await customCodeRow(live.app().store, a.gym.id, member))?.code).toBe('NEW');
  });
});
