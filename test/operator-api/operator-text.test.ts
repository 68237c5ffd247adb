import { describe, expect, test } from 'vitest';
import { dialects, type TestApp } from '../fixtures/test-app.js';
import { T0, admin, createGym, createPartner, operatorApp, wholeStore } from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const MESSAGE = 'must be text without control characters';

/** Each kind of character the rule refuses, inside otherwise ordinary text. */
const BAD_TEXT = [
  ['NUL', 'Smart\u0000Fit'],
  ['a terminal escape (ESC)', 'Smart \u001b[31mFit'],
  ['a line feed', 'Smart\nFit'],
  ['DEL', 'Smart\u007fFit'],
  ['a C1 control (NEL)', 'Smart\u0085Fit'],
  ['a lone surrogate', 'Smart \ud800Fit'],
] as const;

/** Every operator text field: the request that writes it, with the text in place. */
const FIELDS = [
  ['partner name', 'name', async (_t: TestApp, text: string) => ['/partners', { name: text }] as const],
  [
    'gym name',
    'name',
    async (t: TestApp, text: string) =>
      ['/gyms', { partner_id: (await createPartner(t)).id, name: text }] as const,
  ],
  [
    'product description',
    'description',
    async (t: TestApp, text: string) => {
      const gym = await createGym(t, (await createPartner(t)).id);
      return [`/gyms/${gym.id}/products`, { description: text, payout_cents: 100 }] as const;
    },
  ],
  [
    'key label',
    'label',
    async (t: TestApp, text: string) =>
      [`/partners/${(await createPartner(t)).id}/keys`, { label: text }] as const,
  ],
] as const;

describe.each(dialects)('operator text fields refuse control characters (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  describe.each(FIELDS)('%s', (_name, key, request) => {
    test.each(BAD_TEXT)(
      'when it holds %s, then 400 with the field as key and nothing is written',
      async (_kind, text) => {
        const t = app();
        const [path, body] = await request(t, text);
        const before = await wholeStore(t);

        const response = await admin(t, 'POST', path, body);

        expectReply(response, 400, errorEnvelope(key, MESSAGE));
        expect(await wholeStore(t)).toEqual(before);
      },
    );
  });

  test('when a name holds accents, an emoji and a mix of scripts, then it is stored as given', async () => {
    const t = app();
    const name = 'Academia São João 💪 東京';

    const response = await admin(t, 'POST', '/partners', { name });

    const id = (JSON.parse(response.body) as { id: number }).id;
    expectReply(response, 201, { id, name, offboarded_at: null, created_at: T0 });
    expect(await t.store.db.selectFrom('partners').select('name').where('id', '=', id).execute()).toEqual([
      { name },
    ]);
  });

  test('when the CLI path (the services) is given a control character, then it is refused with the field as key too', async () => {
    const t = app();
    const before = await wholeStore(t);

    await expect(t.services.catalog.createPartner('Smart\u0000Fit')).rejects.toMatchObject({
      statusCode: 400,
      key: 'name',
      message: MESSAGE,
    });
    expect(await wholeStore(t)).toEqual(before);
  });
});
