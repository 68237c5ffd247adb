import type { InjectOptions } from 'fastify';
import { describe, expect, test } from 'vitest';
import { BAD_FREE_TEXT } from '../fixtures/bad-inputs.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import * as op from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

type Request = readonly [InjectOptions['method'], string, Record<string, unknown>];
/** Arranges what the request needs, then answers the request that writes `text` into the field. */
type Arrange = (t: TestApp) => Promise<(text: string) => Request>;

/** What a field says when it is empty and when it is one past its bound. */
interface Messages {
  readonly empty: string;
  readonly tooLong: string;
}
const SCHEMA = (max: number): Messages => ({
  empty: 'must NOT have fewer than 1 characters',
  tooLong: `must NOT have more than ${max} characters`,
});
/** The secret's schema is shared by both formats and bounds it at 200; the Wellhub format's bound is 100. */
const WELLHUB_SECRET: Messages = { ...SCHEMA(100), tooLong: 'must be at most 100 characters' };
const WELLHUB = { url: 'http://127.0.0.1:9/free-text', format: 'wellhub' } as const;

/** A closed settlement, made once per app: paying it is the write under test. */
const settlements = new WeakMap<TestApp, number>();
async function closedSettlement(t: TestApp): Promise<number> {
  const known = settlements.get(t);
  if (known !== undefined) return known;
  await op.validatedVisit(t, await op.arrangeNetwork(t));
  t.clock.set('2026-03-03T00:00:00Z');
  const closed = await op.admin(t, 'POST', '/settlements', {
    period_start: '2026-03-02',
    period_end: '2026-03-03',
  });
  expect(closed.statusCode, closed.body).toBe(201);
  const id = closed.json<{ items: { id: number }[] }>().items[0]?.id ?? 0;
  t.clock.set(op.T0);
  settlements.set(t, id);
  return id;
}

/** Every free-text field the operator API writes: its key, its bound, its message past the bound. */
const FIELDS: [string, string, number, Messages, Arrange][] = [
  ['partner name', 'name', 200, SCHEMA(200), async () => (text) => ['POST', '/partners', { name: text }]],
  [
    'partner rename',
    'name',
    200,
    SCHEMA(200),
    async (t) => {
      const { id } = await op.createPartner(t);
      return (text) => ['PATCH', `/partners/${id}`, { name: text }];
    },
  ],
  [
    'gym name',
    'name',
    200,
    SCHEMA(200),
    async (t) => {
      const { id } = await op.createPartner(t);
      return (text) => ['POST', '/gyms', { partner_id: id, name: text }];
    },
  ],
  [
    'gym rename',
    'name',
    200,
    SCHEMA(200),
    async (t) => {
      const { gym } = await op.arrangeNetwork(t);
      return (text) => ['PATCH', `/gyms/${gym.id}`, { name: text }];
    },
  ],
  [
    'product description',
    'description',
    500,
    SCHEMA(500),
    async (t) => {
      const { gym } = await op.arrangeNetwork(t);
      return (text) => ['POST', `/gyms/${gym.id}/products`, { description: text, payout_cents: 100 }];
    },
  ],
  [
    'product change',
    'description',
    500,
    SCHEMA(500),
    async (t) => {
      const { product } = await op.arrangeNetwork(t);
      return (text) => ['PATCH', `/products/${product.id}`, { description: text }];
    },
  ],
  [
    'key label',
    'label',
    200,
    SCHEMA(200),
    async (t) => {
      const { id } = await op.createPartner(t);
      return (text) => ['POST', `/partners/${id}/keys`, { label: text }];
    },
  ],
  [
    'reversal reason',
    'reason',
    500,
    SCHEMA(500),
    async (t) => {
      const { transactionId } = await op.validatedVisit(t, await op.arrangeNetwork(t));
      return (text) => [
        'POST',
        `/transactions/${transactionId}/reversals`,
        { reason: text, amount_cents: 1 },
      ];
    },
  ],
  [
    'settlement reference',
    'reference',
    200,
    SCHEMA(200),
    async (t) => {
      const id = await closedSettlement(t);
      return (text) => ['POST', `/settlements/${id}/paid`, { reference: text }];
    },
  ],
  [
    'Wellhub webhook secret',
    'secret',
    100,
    WELLHUB_SECRET,
    async (t) => {
      const { id } = await op.createPartner(t);
      return (text) => ['POST', `/partners/${id}/webhooks`, { ...WELLHUB, secret: text }];
    },
  ],
  [
    'rotated Wellhub webhook secret',
    'secret',
    100,
    WELLHUB_SECRET,
    async (t) => {
      const { id } = await op.createPartner(t);
      const made = await op.admin(t, 'POST', `/partners/${id}/webhooks`, {
        ...WELLHUB,
        secret: 'wellhub-own',
      });
      expect(made.statusCode, made.body).toBe(201);
      const webhook = made.json<{ id: number }>().id;
      return (text) => ['POST', `/webhooks/${webhook}/secret`, { secret: text }];
    },
  ],
];

describe.each(dialects)('every free-text field under one rule (%s)', (dialect) => {
  const app = op.operatorApp({ dialect, env: { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' } });

  describe.each(FIELDS)('%s', (_name, key, max, messages, arrange) => {
    test('when it holds a control character, is blank after invisible characters or is too long, then 400 with the field as key and nothing is written', async () => {
      const t = app();
      const request = await arrange(t);
      const cases = [
        ...BAD_FREE_TEXT,
        ['empty', '', messages.empty],
        ['one past its bound', 'x'.repeat(max + 1), messages.tooLong],
      ] as const;
      const before = await op.wholeStore(t);

      for (const [label, text, message] of cases) {
        const [method, path, body] = request(text);
        const response = await op.admin(t, method, path, body);
        expect({ label, status: response.statusCode, body: response.json<unknown>() }).toEqual({
          label,
          status: 400,
          body: errorEnvelope(key, message),
        });
      }

      expect(await op.wholeStore(t)).toEqual(before);
    });

    test('when it holds accents, an emoji and a mix of scripts up to its bound, then it is accepted', async () => {
      const t = app();
      const request = await arrange(t);
      const text = 'Academia São João 💪 東京';
      const whole = text + 'y'.repeat(max - [...text].length);
      const [method, path, body] = request(whole);

      const response = await op.admin(t, method, path, body);

      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(response.json<Record<string, unknown>>()[key]).toBe(whole);
    });
  });

  test('when the CLI path (the services) is given bad free text, then it is refused with the field as key and nothing is written', async () => {
    const t = app();
    const { partner, product } = await op.arrangeNetwork(t);
    const { transactionId } = await op.validatedVisit(t, await op.arrangeNetwork(t));
    const id = await closedSettlement(t);
    const before = await op.wholeStore(t);

    const calls: [string, number, (text: string) => Promise<unknown>][] = [
      ['name', 200, (text) => t.services.catalog.createPartner(text)],
      ['name', 200, (text) => t.services.catalog.createGym({ partnerId: partner.id, name: text })],
      [
        'description',
        500,
        (text) => t.services.catalogChanges.updateProduct(product.id, { description: text }),
      ],
      ['reason', 500, (text) => t.services.ledger.reverse({ transactionId, reason: text })],
      ['reference', 200, (text) => t.services.settlements.pay(id, text)],
    ];
    for (const [key, max, call] of calls) {
      const length = `length must be between 1 and ${max} characters`;
      for (const [text, message] of [
        ['Smart\u0000Fit', 'must be text without control characters'],
        ['\u200b\u3164', 'must not be blank'],
        ['', length],
        ['z'.repeat(max + 1), length],
      ] as const) {
        await expect((async () => call(text))()).rejects.toMatchObject({ statusCode: 400, key, message });
      }
    }
    expect(await op.wholeStore(t)).toEqual(before);
  });
});
