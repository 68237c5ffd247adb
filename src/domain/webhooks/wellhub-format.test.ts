import { describe, expect, test } from 'vitest';
import { wellhubBody, wellhubSignature } from './wellhub-format.js';

/** A checkin.created event's data at gym 42, with the member details the test gives (none by default). */
function body(member?: Record<string, unknown>): string {
  return wellhubBody({
    data: {
      platform_id: '1234567890123',
      product: { id: 2, description: 'Day pass' },
      checked_in_at: '2026-11-23T12:00:00.999Z',
      ...(member === undefined ? {} : { member }),
    },
    gym: { id: 42, name: 'Acme "Downtown"' },
  });
}

/** The expected bytes around the `user` object, which each test spells out. */
const wire = (user: string) =>
  `{"event_type":"checkin","event_data":{"user":{"unique_token":"1234567890123"${user}},` +
  '"gym":{"id":42,"title":"Acme \\"Downtown\\"","product":{"id":2,"description":"Day pass"}},' +
  '"timestamp":1795435200}}';

describe('the Wellhub format', () => {
  test('when a body is signed, then the signature is the uppercase hex HMAC-SHA1 of its bytes', () => {
    // The published HMAC-SHA1 test vector (key "key").
    expect(wellhubSignature('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'DE7C9B85B8B78AA6BC8A7A36F70A90701C9DB4D9',
    );
  });

  test('when a check-in has every member detail, then the user carries them all, in Wellhub order', () => {
    // Given in another order: the body's order is Wellhub's, whatever order they were stored in.
    const member = {
      phone_number: '+5511999990000',
      email: 'ana@example.com',
      last_name: 'Souza',
      first_name: 'Ana',
    };

    expect(body(member)).toBe(
      wire(
        ',"first_name":"Ana","last_name":"Souza","email":"ana@example.com","phone_number":"+5511999990000"',
      ),
    );
  });

  test('when a check-in has no member details, then the user is the token alone', () => {
    expect(body()).toBe(wire(''));
    expect(body({})).toBe(wire(''));
  });

  test('when a check-in has some member details, then only those follow the token', () => {
    expect(body({ first_name: 'Bo', email: 'bo@example.com' })).toBe(
      wire(',"first_name":"Bo","email":"bo@example.com"'),
    );
  });

  test('when details were stored as empty strings or null, then they are left out as absent ones are', () => {
    const member = { first_name: '', last_name: 'Souza', email: null, phone_number: '' };

    expect(body(member)).toBe(wire(',"last_name":"Souza"'));
  });
});
