import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { dispatchEvents } from '../../src/services/webhooks/dispatcher.js';
import { platformId } from '../fixtures/factories.js';
import type { TestApp } from '../fixtures/test-app.js';
import { dialects } from '../fixtures/test-app.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';
import * as op from '../fixtures/operator-api.js';

const PSEUDONYM = /^erased-[0-9a-f]{16}$/;

/** The copies an erasure names as out of its reach, on a database with no NATS feed. */
const notReached = (dialect: string) => [
  'payloads already delivered to webhook receivers and event streams',
  ...(dialect === 'postgres'
    ? ["PostgreSQL's write-ahead log, archives, replicas and backups, kept as their operator keeps them"]
    : []),
  'backups made before the erasure',
];

/** Every row of every table the database holds, whoever added the table: what an erasure must have reached. */
async function everyRow(t: TestApp): Promise<string> {
  const tables =
    t.store.dialect === 'postgres'
      ? await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.store.db)
      : await sql<{ name: string }>`
          select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
          t.store.db,
        );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    dump[name] = (
      await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.store.db)
    ).rows;
  }
  return JSON.stringify(dump, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
}

function partnerGet(t: TestApp, key: string, gymId: number, url: string) {
  return t.app.inject({ method: 'GET', url: `/access/v1${url}`, headers: op.partnerHeaders(key, gymId) });
}

/** A member with everything a member can leave behind: paid and unpaid check-ins, a code, its reads and events. */
async function arrangeMember(t: TestApp, n: Awaited<ReturnType<typeof op.arrangeNetwork>>, member: string) {
  // Cancelled first: once a visit is validated, the daily limit refuses another check-in that day.
  const toCancel = await op.createCheckin(t, n.product, { platform_id: member });
  expect((await op.admin(t, 'POST', `/checkins/${toCancel.id}/cancel`)).statusCode).toBe(200);
  t.clock.advance(60_000);
  const paid = await op.createCheckin(t, n.product, { platform_id: member });
  expect((await op.validate(t, n.key.key, n.gym.id, member)).statusCode).toBe(200);
  const code = await t.app.inject({
    method: 'POST',
    url: `/access/v1/code/${member}`,
    headers: { ...op.partnerHeaders(n.key.key, n.gym.id), 'content-type': 'application/json' },
    payload: JSON.stringify({ custom_code: '4321' }),
  });
  expect(code.statusCode).toBe(201);
  const read = await op.admin(t, 'GET', `/custom-codes?platform_id=${member}&gym_id=${n.gym.id}`);
  expect(read.statusCode).toBe(200);
  return { paid };
}

async function supportToken(t: TestApp): Promise<string> {
  const response = await op.admin(t, 'POST', '/operators', { name: 'privacy-desk', role: 'support' });
  return (JSON.parse(response.body) as { token: string }).token;
}

function erase(t: TestApp, token: string, member: string) {
  return t.app.inject({
    method: 'POST',
    url: `/admin/v1/members/${member}/erase`,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe.each(dialects)("a member's erasure (%s)", (dialect) => {
  const app = op.operatorApp({ dialect, perTest: true, env: { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' } });

  test('when a member is erased, then no stored row, API answer, export, event replay, audit entry or later log line names them, and the ledger sums as before', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();
    const other = platformId();
    // A webhook of the partner: each of the member's events becomes a delivery keyed by member and gym.
    const webhook = await op.admin(t, 'POST', `/partners/${n.partner.id}/webhooks`, {
      url: 'http://127.0.0.1:9/hook',
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const webhookId = (JSON.parse(webhook.body) as { id: number }).id;
    await arrangeMember(t, n, member);
    await arrangeMember(t, n, other);
    while ((await dispatchEvents(t.store, t.clock)) > 0);
    const token = await supportToken(t);
    const payoutsBefore = (await op.admin(t, 'GET', '/payouts?from=2026-03-01&to=2026-04-01')).body;
    const otherRowsBefore = await t.store.db
      .selectFrom('checkins')
      .selectAll()
      .where('platform_id', '=', other)
      .execute();
    expect((await everyRow(t)).includes(member)).toBe(true);
    const linesBefore = t.logs.lines.length;

    const response = await erase(t, token, member);

    const { pseudonym } = JSON.parse(response.body) as { pseudonym: string };
    expect(pseudonym).toMatch(PSEUDONYM);
    // Codes: 1; check-ins: the paid one and the cancelled one; events: checkin.created ×2, validated, cancelled,
    // custom_code.created; audit: the code's creation and its read by the operator.
    expectReply(response, 200, {
      pseudonym,
      erased: {
        custom_codes: 1,
        checkins: 2,
        transactions: 1,
        events: 5,
        audit_entries: 2,
        webhook_deliveries: 5,
        reversal_reasons: 0,
      },
      not_reached: notReached(dialect),
    });

    const answers = await Promise.all([
      op.admin(t, 'GET', '/checkins'),
      op.admin(t, 'GET', '/transactions'),
      op.admin(t, 'GET', '/transactions?format=csv'),
      op.admin(t, 'GET', '/payouts?from=2026-03-01&to=2026-04-01&format=csv'),
      op.admin(t, 'GET', '/events'),
      op.admin(t, 'GET', '/audit'),
      op.admin(t, 'GET', `/webhooks/${webhookId}/deliveries`),
      partnerGet(t, n.key.key, n.gym.id, '/transactions'),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body.includes(member), answer.body).toBe(false);
    }
    expect((await everyRow(t)).includes(member)).toBe(false);
    expect(t.logs.lines.slice(linesBefore).join('\n').includes(member)).toBe(false);
    // The member's check-ins and ledger row now carry the pseudonym; the other member's are untouched.
    const transactions = JSON.parse(answers[1]?.body ?? '') as { items: { platform_id: string }[] };
    expect(transactions.items.map((item) => item.platform_id).sort()).toEqual([other, pseudonym].sort());
    expect(
      await t.store.db.selectFrom('checkins').selectAll().where('platform_id', '=', other).execute(),
    ).toEqual(otherRowsBefore);
    expect((await op.admin(t, 'GET', '/payouts?from=2026-03-01&to=2026-04-01')).body).toBe(payoutsBefore);
    // Their payloads are purged; the other member's events still say everything.
    const events = JSON.parse(answers[4]?.body ?? '') as {
      items: { data: Record<string, unknown> | null }[];
    };
    expect(events.items.filter((event) => event.data === null)).toHaveLength(5);
    expect(events.items.filter((event) => event.data?.platform_id === other)).toHaveLength(5);
    // The code is gone for the member app and the partner alike.
    expect(
      (await op.admin(t, 'GET', `/custom-codes?platform_id=${member}&gym_id=${n.gym.id}`)).statusCode,
    ).toBe(404);
    expect((await partnerGet(t, n.key.key, n.gym.id, `/code/${member}`)).statusCode).toBe(404);
    // Audited, under the pseudonym only, naming who erased.
    const audit = JSON.parse(answers[5]?.body ?? '') as { items: Record<string, unknown>[] };
    expect(audit.items.at(-1)).toMatchObject({
      actor: 'operator:privacy-desk',
      action: 'erase',
      entity: 'member',
      entity_id: pseudonym,
    });
  });

  test('when a member is erased twice, then the second answers the same pseudonym with nothing left to change, and writes only its audit entry', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const member = platformId();
    await arrangeMember(t, n, member);
    const token = await supportToken(t);
    const first = JSON.parse((await erase(t, token, member)).body) as { pseudonym: string };
    const before = await op.wholeStore(t);

    const second = await erase(t, token, member);

    expectReply(second, 200, {
      pseudonym: first.pseudonym,
      erased: {
        custom_codes: 0,
        checkins: 0,
        transactions: 0,
        events: 0,
        audit_entries: 0,
        webhook_deliveries: 0,
        reversal_reasons: 0,
      },
      not_reached: notReached(dialect),
    });
    const after = await op.wholeStore(t);
    expect({ ...after, audit_log: after.audit_log.slice(0, -1) }).toEqual(before);
  });

  test('when two members are erased, then their pseudonyms differ; when the member checks in again later, that is new data, served as usual', async () => {
    const t = app();
    const n = await op.arrangeNetwork(t);
    const [a, b] = [platformId(), platformId()];
    const token = await supportToken(t);

    const first = JSON.parse((await erase(t, token, a)).body) as { pseudonym: string };
    const second = JSON.parse((await erase(t, token, b)).body) as { pseudonym: string };
    const again = await op.createCheckin(t, n.product, { platform_id: a });

    expect(first.pseudonym).not.toBe(second.pseudonym);
    expect(again.platform_id).toBe(a);
  });

  test.each(['123', '12345678901234', 'erased-0123456789abcdef'])(
    'when the platform_id to erase is %s, then 400 key platform_id and nothing is written',
    async (bad) => {
      const t = app();
      const token = await supportToken(t);
      const before = await op.wholeStore(t);

      expectReply(
        await erase(t, token, bad),
        400,
        errorEnvelope('platform_id', 'must be a string of 13 digits'),
      );

      expect(await op.wholeStore(t)).toEqual(before);
    },
  );
});
