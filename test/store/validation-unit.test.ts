import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, test } from 'vitest';
import { OPERATOR } from '../../src/domain/audit.js';
import type { ValidationOutcome, ValidationRequest } from '../../src/domain/decisions/validation.js';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { allowCodeWrites, failCodeWrites } from '../fixtures/fault-injection.js';
import {
  checkinRow,
  customCodeRow,
  expectLedgerInvariants,
  transactionsOf,
  visitRow,
} from '../fixtures/store-state.js';
import { dialects, useApp, type TestApp, type TestDialect } from '../fixtures/test-app.js';

/**
 * The validate unit of work, called on the store directly: the query-builder version and each dialect's
 * hand-tuned fast path (SQLite's group commit, PostgreSQL's batched validation) must behave the same.
 */
interface Implementation {
  readonly name: string;
  readonly dialect: TestDialect;
  /** The dialect's fast path: validations that arrive together share one transaction. */
  readonly groupCommit: boolean;
}

function implementationsOf(dialect: TestDialect): Implementation[] {
  if (dialect === 'postgres') {
    return [
      { name: 'postgres, batched', dialect, groupCommit: true },
      { name: 'postgres, query builder', dialect, groupCommit: false },
    ];
  }
  return [
    { name: 'sqlite, group commit', dialect, groupCommit: true },
    { name: 'sqlite, query builder', dialect, groupCommit: false },
  ];
}

const implementations = dialects.flatMap(implementationsOf);

describe.each(implementations)('store.validate ($name)', ({ dialect, groupCommit }) => {
  let t: TestApp;
  let a: Arranged;
  const shared = useApp({ dialect, groupCommit });
  beforeAll(async () => {
    t = shared();
    a = await arrangePartner(t.services, { payoutCents: 990, currency: 'USD', description: 'Yoga class' });
  });

  async function pending(checkedInAt = t.clock.now()) {
    const member = platformId();
    const checkin = await t.services.checkins.create({
      platformId: member,
      gymId: a.gym.id,
      productId: a.product.id,
      checkedInAt,
    });
    return { member, checkin };
  }
  const request = (member: string, customCode?: string): ValidationRequest => ({
    gymId: a.gym.id,
    platformId: member,
    customCode,
    now: t.clock.now(),
    actor: OPERATOR,
  });
  const validate = (r: ValidationRequest) => t.store.apply('validate', r);

  /** A member for each check-in a validation refuses: already validated, cancelled, expired, and none at all. */
  async function oneOfEachRefusal() {
    const validated = await pending();
    await validate(request(validated.member));
    const cancelled = await pending();
    await t.services.checkins.cancel(cancelled.checkin.id);
    const expired = await pending(t.clock.now() - t.config.checkinTtlSeconds * 1000);
    return { validated, cancelled, expired, absent: platformId() };
  }

  test('when the check-in is pending, then it is validated with its transaction, atomically with the code', async () => {
    const { member, checkin } = await pending();
    expect(await validate(request(member, 'QR-1'))).toEqual({
      condition: 'valid',
      productId: a.product.id,
      productDescription: 'Yoga class',
      validatedAt: t.clock.now(),
    });
    expect((await checkinRow(t.store, checkin.id)).status).toBe('validated');
    expect(await transactionsOf(t.store, checkin.id)).toEqual([
      visitRow(a, { id: checkin.id, platformId: member }, 990, 'USD', t.clock.now()),
    ]);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('QR-1');
  });

  test('when the check-in is validated, cancelled, expired or absent, then each condition, and the code only where it exists', async () => {
    const { validated, cancelled, expired, absent } = await oneOfEachRefusal();
    const outcomes = await Promise.all(
      [validated.member, cancelled.member, expired.member, absent].map((member) =>
        validate(request(member, `C-${member.slice(-4)}`)),
      ),
    );
    expect(outcomes).toEqual([
      { condition: 'already-validated' },
      { condition: 'cancelled' },
      { condition: 'expired' },
      { condition: 'notfound' },
    ]);
    for (const member of [validated.member, cancelled.member, expired.member]) {
      expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe(`C-${member.slice(-4)}`);
    }
    expect(await customCodeRow(t.store, a.gym.id, absent)).toBeUndefined();
    await expectLedgerInvariants(t.store);
  });

  test('when 50 validations of one check-in arrive together, then exactly one is valid and one transaction exists', async () => {
    const { member, checkin } = await pending();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => validate(request(member))));
    expect(outcomes.filter((outcome) => outcome.condition === 'valid')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.condition === 'already-validated')).toHaveLength(49);
    expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
    await expectLedgerInvariants(t.store);
  });

  test('when one validation of a batch fails, then its neighbours are validated and it leaves nothing behind', async () => {
    const failing = await pending();
    const neighbours = [await pending(), await pending()];
    // Storing this one code fails: only the validation that carries it can fail.
    await failCodeWrites(t.store, 'QR-X');
    try {
      const settled = await Promise.allSettled([
        validate(request(neighbours[0]?.member ?? '')),
        validate(request(failing.member, 'QR-X')),
        validate(request(neighbours[1]?.member ?? '')),
      ]);
      expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    } finally {
      await allowCodeWrites(t.store);
    }
    expect((await checkinRow(t.store, failing.checkin.id)).status).toBe('pending');
    expect(await transactionsOf(t.store, failing.checkin.id)).toEqual([]);
    for (const neighbour of neighbours) {
      expect((await checkinRow(t.store, neighbour.checkin.id)).status).toBe('validated');
    }
    await expectLedgerInvariants(t.store);
  });

  test('when one batch mixes every condition, then each validation gets its own, a transaction only for the valid one, and codes wherever a check-in exists', async () => {
    const valid = await pending();
    const { validated, cancelled, expired, absent } = await oneOfEachRefusal();
    const members = [valid.member, validated.member, cancelled.member, expired.member, absent];
    const outcomes = await Promise.all(members.map((member) => validate(request(member, `M-${member}`))));
    expect(outcomes).toEqual([
      {
        condition: 'valid',
        productId: a.product.id,
        productDescription: 'Yoga class',
        validatedAt: t.clock.now(),
      },
      { condition: 'already-validated' },
      { condition: 'cancelled' },
      { condition: 'expired' },
      { condition: 'notfound' },
    ]);
    expect((await checkinRow(t.store, valid.checkin.id)).status).toBe('validated');
    expect(await transactionsOf(t.store, valid.checkin.id)).toEqual([
      expect.objectContaining({ platform_id: valid.member, payout_cents: 990, currency: 'USD' }),
    ]);
    expect(await transactionsOf(t.store, validated.checkin.id)).toHaveLength(1);
    expect((await checkinRow(t.store, cancelled.checkin.id)).status).toBe('cancelled');
    expect(await transactionsOf(t.store, cancelled.checkin.id)).toEqual([]);
    expect((await checkinRow(t.store, expired.checkin.id)).status).toBe('pending');
    expect(await transactionsOf(t.store, expired.checkin.id)).toEqual([]);
    for (const member of members.slice(0, 4)) {
      expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe(`M-${member}`);
    }
    expect(await customCodeRow(t.store, a.gym.id, absent)).toBeUndefined();
    await expectLedgerInvariants(t.store);
  });

  test('when one member validates several times in one batch, then exactly one is valid, the others already validated, and one transaction exists', async () => {
    const twice = await pending();
    const other = await pending();
    const outcomes = await Promise.all([
      validate(request(twice.member, 'D-1')),
      validate(request(other.member)),
      validate(request(twice.member, 'D-2')),
      validate(request(twice.member)),
    ]);
    const mine = [outcomes[0], outcomes[2], outcomes[3]];
    expect(mine.filter((outcome) => outcome?.condition === 'valid')).toHaveLength(1);
    expect(mine.filter((outcome) => outcome?.condition === 'already-validated')).toHaveLength(2);
    expect(outcomes[1]?.condition).toBe('valid');
    expect(await transactionsOf(t.store, twice.checkin.id)).toHaveLength(1);
    expect(await transactionsOf(t.store, other.checkin.id)).toHaveLength(1);
    const code = (await customCodeRow(t.store, a.gym.id, twice.member))?.code;
    expect(['D-1', 'D-2']).toContain(code);
    if (groupCommit) {
      // The fast paths keep each member's requests in arrival order: the first validates, the last code stays.
      expect(mine.map((outcome) => outcome?.condition)).toEqual([
        'valid',
        'already-validated',
        'already-validated',
      ]);
      expect(code).toBe('D-2');
    }
    await expectLedgerInvariants(t.store);
  });

  test('when more validations arrive together than one batch holds, then every one is validated once', async () => {
    const checkins = [];
    for (let i = 0; i < 150; i += 1) checkins.push(await pending());
    const outcomes = await Promise.all(
      checkins.map(({ member }) => validate(request(member, `B-${member}`))),
    );
    expect(outcomes.map((outcome) => outcome.condition)).toEqual(checkins.map(() => 'valid'));
    for (const { member, checkin } of checkins) {
      expect(await transactionsOf(t.store, checkin.id)).toHaveLength(1);
      expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe(`B-${member}`);
    }
    await expectLedgerInvariants(t.store);
  });

  test('when the check-in is cancelled while its validation waits for it, then the validation says cancelled and pays nothing', async () => {
    const { member, checkin } = await pending();
    let validation: Promise<ValidationOutcome> | undefined;
    await t.store.write(async (trx) => {
      await trx
        .updateTable('checkins')
        .set({ status: 'cancelled', cancelled_at: t.clock.now() })
        .where('id', '=', checkin.id)
        .execute();
      validation = validate(request(member, 'QR-C'));
      // On PostgreSQL the validation reads the check-in pending meanwhile, and its update waits on the row.
      await sleep(300);
    });
    expect(await validation).toEqual({ condition: 'cancelled' });
    expect((await checkinRow(t.store, checkin.id)).status).toBe('cancelled');
    expect(await transactionsOf(t.store, checkin.id)).toEqual([]);
    expect((await customCodeRow(t.store, a.gym.id, member))?.code).toBe('QR-C');
    await expectLedgerInvariants(t.store);
  });
});
