import { describe, expect, test } from 'vitest';
import { given } from './given.js';

describe('given', () => {
  test('when some fields are undefined, then the copy leaves them out and keeps the rest in their order', () => {
    const copy = given({ id: undefined, name: 'Ana', timezone: undefined, limit: 0, note: null });

    expect(copy).toStrictEqual({ name: 'Ana', limit: 0, note: null });
    expect(Object.keys(copy)).toStrictEqual(['name', 'limit', 'note']);
    expect('id' in copy).toBe(false);
  });

  test('when it is spread over defaults, then a field left out keeps the default', () => {
    const defaults = { payoutCents: 0, currency: 'BRL' };

    expect({ ...defaults, ...given({ payoutCents: undefined, currency: 'EUR' }) }).toStrictEqual({
      payoutCents: 0,
      currency: 'EUR',
    });
  });
});
