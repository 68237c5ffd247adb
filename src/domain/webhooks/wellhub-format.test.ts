import { describe, expect, test } from 'vitest';
import { wellhubBody, wellhubSignature } from './wellhub-format.js';

describe('the Wellhub format', () => {
  test('when a body is signed, then the signature is the uppercase hex HMAC-SHA1 of its bytes', () => {
    // The published HMAC-SHA1 test vector (key "key").
    expect(wellhubSignature('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'DE7C9B85B8B78AA6BC8A7A36F70A90701C9DB4D9',
    );
  });

  test('when a check-in has no member details, then every user field but the token is an empty string', () => {
    const body = wellhubBody({
      data: {
        platform_id: '1234567890123',
        product: { id: 2, description: 'Day pass' },
        checked_in_at: '2026-11-23T12:00:00.999Z',
      },
      gym: { id: 42, name: 'Acme "Downtown"' },
    });

    expect(body).toBe(
      '{"event_type":"checkin","event_data":{"user":{"unique_token":"1234567890123","first_name":"",' +
        '"last_name":"","email":"","phone_number":""},"gym":{"id":42,"title":"Acme \\"Downtown\\"",' +
        '"product":{"id":2,"description":"Day pass"}},"timestamp":1795435200}}',
    );
  });
});
