import { describe, expect, test } from 'vitest';
import { checkinRow, expectLedgerInvariants, transactionsOf } from '../fixtures/store-state.js';
import { dialects } from '../fixtures/test-app.js';
import { admin, arrangeNetwork, createCheckin, operatorApp, validate } from '../fixtures/operator-api.js';

const TRIALS = 40;

describe.each(dialects)('cancel racing validate of one check-in (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  test('when a cancel and a validate of one check-in arrive together, then one wins and both answers agree with the ledger and the log', async () => {
    const t = app();
    const n = await arrangeNetwork(t);
    const winners = { cancel: 0, validate: 0 };
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const checkin = await createCheckin(t, n.product);
      // Alternate which request leaves first, so neither always has the head start.
      const sendCancel = () => admin(t, 'POST', `/checkins/${checkin.id}/cancel`);
      const sendValidate = () => validate(t, n.key.key, n.gym.id, checkin.platform_id);
      const [cancel, validation] =
        trial % 2 === 0
          ? await Promise.all([sendCancel(), sendValidate()])
          : (await Promise.all([sendValidate(), sendCancel()])).reverse();
      const row = await checkinRow(t.store, checkin.id);
      const paid = await transactionsOf(t.store, checkin.id);
      const logged = await t.store.db
        .selectFrom('events')
        .select('type')
        .where('type', 'in', ['checkin.cancelled', 'checkin.validated'])
        .where('data', 'like', `%"checkin_id":${checkin.id},%`)
        .execute();

      if (validation?.statusCode === 200) {
        winners.validate += 1;
        expect(cancel?.statusCode, cancel?.body).toBe(409);
        expect(cancel?.json()).toEqual({
          metadata: { total: 0, errors: 1 },
          errors: [{ message: 'Check-In already validated', key: 'checkin.already.validated' }],
        });
        expect(row.status).toBe('validated');
        expect(paid).toHaveLength(1);
        expect(logged.map((event) => event.type)).toEqual(['checkin.validated']);
      } else {
        winners.cancel += 1;
        expect(cancel?.statusCode, cancel?.body).toBe(200);
        expect(cancel?.json()).toMatchObject({ id: checkin.id, status: 'cancelled', validated_at: null });
        expect(validation?.statusCode).toBe(400);
        expect(validation?.json()).toEqual({
          metadata: { total: 0, errors: 1 },
          errors: [{ message: 'Check-In cancelled', key: 'checkin.validation.cancelled' }],
        });
        expect(row.status).toBe('cancelled');
        expect(paid).toEqual([]);
        expect(logged.map((event) => event.type)).toEqual(['checkin.cancelled']);
      }
    }
    expect(winners.cancel + winners.validate).toBe(TRIALS);
    await expectLedgerInvariants(t.store);
  });
});
