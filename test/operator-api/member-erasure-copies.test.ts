import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { backupSqlite } from '../../src/store/dialects/sqlite/sqlite-backup.js';
import { platformId, unique } from '../fixtures/factories.js';
import { expectReply } from '../fixtures/partner-api.js';
import { dialects, type TestApp, type TestDialect } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';

const ANA = { first_name: 'Anaclara', last_name: 'Quintanilha', email: 'anaclara.q@example.com' };
const SENT = [
  'payloads already delivered to webhook receivers and event streams',
  'backups made before the erasure',
];
const POSTGRES_COPIES =
  "PostgreSQL's write-ahead log, archives, replicas and backups, kept as their operator keeps them";

/**
 * What the member leaves in every kind of row: details, a sandbox visit, a reversal whose reason names them; with
 * `onCounterRow`, their visit priced under payout rules and counted on their own payout counter row (as while a
 * process of the release before visit marks is alive).
 */
async function arrangeMember(t: TestApp, member: string, { onCounterRow = false } = {}) {
  const n = await op.arrangeNetwork(t);
  let leave = async () => {};
  if (onCounterRow) {
    const rules = { monthly_paid_visits_per_member: 8, tiers: [] };
    op.ok(await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules), 200);
    leave = await op.aliveEarlierRelease(t, '0018-member-checkins-by-expiry');
  }
  const created = await op.admin(t, 'POST', '/checkins', {
    platform_id: member,
    gym_id: n.gym.id,
    product_id: n.product.id,
    member: ANA,
  });
  expect(created.statusCode, created.body).toBe(201);
  const validated = await op.validate(t, n.key.key, n.gym.id, member);
  expect(validated.statusCode, validated.body).toBe(200);
  await leave();
  const { id: transactionId } = await t.store.db
    .selectFrom('transactions')
    .select('id')
    .where('platform_id', '=', member)
    .executeTakeFirstOrThrow();
  const reason = `${ANA.first_name} ${ANA.last_name} (${member}) was charged twice`;
  const reversed = await op.admin(t, 'POST', `/transactions/${transactionId}/reversals`, { reason });
  expect(reversed.statusCode, reversed.body).toBe(201);
  // A sandbox partner's visit under the same member id.
  const sandbox = JSON.parse(
    (await op.admin(t, 'POST', '/partners', { name: `Sandbox ${unique()}`, sandbox: true })).body,
  ) as { id: number };
  const gym = JSON.parse(
    (await op.admin(t, 'POST', '/gyms', { partner_id: sandbox.id, name: 'Lab' })).body,
  ) as {
    id: number;
  };
  await op.createProduct(t, gym.id, { description: 'Day pass', payout_cents: 1500 });
  const key = await op.issueKey(t, sandbox.id);
  const simulated = await t.app.inject({
    method: 'POST',
    url: '/access/v1/sandbox/checkins',
    headers: { ...op.partnerHeaders(key.key, gym.id), 'content-type': 'application/json' },
    payload: JSON.stringify({ platform_id: member, member: ANA }),
  });
  expect(simulated.statusCode, simulated.body).toBe(201);
  return { transactionId, sandboxGym: gym.id };
}

/** The erasure's whole answer: 200, what it erased, and the copies out of its reach; returns the pseudonym. */
function expectErased(
  response: LightMyRequestResponse,
  dialect: TestDialect,
  erased: Record<string, number>,
) {
  const { pseudonym } = JSON.parse(response.body) as { pseudonym: string };
  expectReply(response, 200, {
    pseudonym,
    erased,
    not_reached: dialect === 'postgres' ? [SENT[0], POSTGRES_COPIES, SENT[1]] : [SENT[0], SENT[1]],
  });
  return pseudonym;
}

const traces = (member: string) => [member, ANA.first_name, ANA.last_name, ANA.email];

describe.each(dialects)("an erasure's reach (%s)", (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test('when a member with details, a reversed visit and a sandbox visit is erased, then the reversal reason says "erased", the sandbox rows carry the pseudonym, and the answer names the copies out of reach', async () => {
    const t = app();
    const member = platformId();
    const { transactionId, sandboxGym } = await arrangeMember(t, member);

    const response = await op.admin(t, 'POST', `/members/${member}/erase`);

    // Check-ins: the live one and the sandbox one; events: created ×2, validated, reversed.
    const pseudonym = expectErased(response, dialect, {
      custom_codes: 0,
      checkins: 2,
      transactions: 1,
      events: 4,
      audit_entries: 0,
      webhook_deliveries: 0,
      reversal_reasons: 1,
    });
    const reversals = await t.store.db
      .selectFrom('reversals')
      .select(['transaction_id', 'reason'])
      .where('transaction_id', '=', transactionId)
      .execute();
    expect(reversals).toEqual([{ transaction_id: transactionId, reason: 'erased' }]);
    const sandboxRows = await t.store.db
      .selectFrom('checkins')
      .select(['platform_id', 'member'])
      .where('gym_id', '=', sandboxGym)
      .execute();
    expect(sandboxRows).toEqual([{ platform_id: pseudonym, member: null }]);
    const csv = await op.admin(t, 'GET', '/transactions?format=csv');
    for (const trace of traces(member)) expect(csv.body.includes(trace), trace).toBe(false);
  });

  test("when validations of a member's check-ins at several gyms race the member's erasure, then no row is left naming the member", async () => {
    const t = app();
    const member = platformId();
    const networks = await Promise.all(Array.from({ length: 6 }, () => op.arrangeNetwork(t)));
    for (const n of networks) await op.createCheckin(t, n.product, { platform_id: member });

    const answers = await Promise.all([
      ...networks.map((n) => op.validate(t, n.key.key, n.gym.id, member)),
      op.admin(t, 'POST', `/members/${member}/erase`),
      ...networks.map((n) => op.validate(t, n.key.key, n.gym.id, member)),
    ]);

    // Each validation came before the erasure (200, its visit then erased) or after it (no check-in of theirs left).
    for (const answer of answers) expect([200, 404], answer.body).toContain(answer.statusCode);
    for (const table of ['checkins', 'transactions'] as const) {
      const left = await t.store.db
        .selectFrom(table)
        .select('id')
        .where('platform_id', '=', member)
        .execute();
      expect(left, table).toEqual([]);
    }
  });
});

describe.each(dialects)("an erasure's reach into payout counts (%s)", (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true });

  test("when a member whose visits were counted on a counter row and on a check-in is erased, then no counter row names them: theirs carries the pseudonym and the same counts, the partner's total is unchanged", async () => {
    const t = app();
    const n = await op.arrangeNetwork(t, { payout_cents: 1250 });
    const rules = { monthly_paid_visits_per_member: 1, tiers: [] };
    op.ok(await op.admin(t, 'PUT', `/partners/${n.partner.id}/payout-rules`, rules), 200);
    const member = platformId();
    // A process of the release before visit marks is alive: the first visit is counted on the member's counter row.
    const leave = await op.aliveEarlierRelease(t, '0018-member-checkins-by-expiry');
    await op.createCheckin(t, n.product, { platform_id: member });
    expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
    await leave();
    // The next day (one visit a day at a gym): the gate has opened, the second visit is counted on its check-in.
    t.clock.advance(86_400_000);
    await op.createCheckin(t, n.product, { platform_id: member });
    expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
    const counters = async () => {
      const found = await t.store.db
        .selectFrom('payout_counters')
        .select(['partner_id', 'month', 'gym_id', 'platform_id', 'visits', 'paid_cents'])
        .orderBy('platform_id')
        .execute();
      return found.map((c) => [
        Number(c.partner_id),
        c.month,
        Number(c.gym_id),
        c.platform_id,
        Number(c.visits),
        Number(c.paid_cents),
      ]);
    };
    const total = [n.partner.id, '2026-03', 0, '', 2, 1250];
    expect(await counters()).toEqual([total, [n.partner.id, '2026-03', 0, member, 1, 0]]);

    const response = await op.admin(t, 'POST', `/members/${member}/erase`);

    const pseudonym = expectErased(response, dialect, {
      custom_codes: 0,
      checkins: 2,
      transactions: 2,
      events: 4,
      audit_entries: 0,
      webhook_deliveries: 0,
      reversal_reasons: 0,
    });
    // The whole table: no row names the member, theirs carries the pseudonym, the partner's total is as before.
    expect(await counters()).toEqual([total, [n.partner.id, '2026-03', 0, pseudonym, 1, 0]]);
    const marks = await t.store.db
      .selectFrom('checkins')
      .select(['platform_id', 'counted_month', 'counted_scope'])
      .where('gym_id', '=', n.gym.id)
      .orderBy('id')
      .execute();
    expect(
      marks.map((m) => [
        m.platform_id,
        m.counted_month,
        m.counted_scope === null ? null : Number(m.counted_scope),
      ]),
    ).toEqual([
      [pseudonym, null, null],
      [pseudonym, '2026-03', 0],
    ]);
  });
});

describe("an erasure's reach on SQLite's files", () => {
  const app = op.operatorApp({ dialect: 'sqlite', perTest: true });

  test('when a member is erased, then neither the database file nor its write-ahead log holds their id, names or e-mail, and a backup made after is readable by its owner only and holds none of them', async () => {
    const t = app();
    const member = platformId();
    // Their visit also counted on their payout counter row: the files must not keep the id from there either.
    await arrangeMember(t, member, { onCounterRow: true });
    const file = t.databaseUrl.slice('sqlite:'.length);
    const bytes = () =>
      readFileSync(file).toString('latin1') + readFileSync(`${file}-wal`).toString('latin1');
    for (const trace of traces(member)) expect(bytes().includes(trace), trace).toBe(true);

    const response = await op.admin(t, 'POST', `/members/${member}/erase`);

    expect(response.statusCode, response.body).toBe(200);
    expect(statSync(`${file}-wal`).size).toBe(0);
    for (const trace of traces(member)) expect(bytes().includes(trace), trace).toBe(false);
    const backup = join(file, '..', 'after-erasure.db');
    await backupSqlite(file, backup);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const copy = readFileSync(backup).toString('latin1');
    for (const trace of traces(member)) expect(copy.includes(trace), trace).toBe(false);
    const pragma = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(t.store.db);
    expect(pragma.rows).toEqual([{ secure_delete: 1 }]);
  });
});
