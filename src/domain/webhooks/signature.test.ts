import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { createSecretBox, SecretKeyMissingError } from './secret-box.js';
import { generateSecret, isStandardSecret, signedHeaders } from './signature.js';

describe('signatures and secrets', () => {
  test('when a body is signed with a generated secret, then the Standard Webhooks library verifies it', () => {
    const secret = generateSecret();
    const body = '{"type":"checkin.created","timestamp":"2026-11-23T12:00:00.000Z","data":{}}';
    const headers = signedHeaders([secret], 'evt_1', Math.floor(Date.now() / 1000), body);

    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
  });

  test('when a secret is given, then only whsec_ and the base64 of 24 to 64 bytes is one', () => {
    expect(isStandardSecret(generateSecret())).toBe(true);
    expect(isStandardSecret(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBe(false);
    expect(isStandardSecret('whsec_not base64 at all, really not')).toBe(false);
    expect(isStandardSecret('my-secret')).toBe(false);
  });

  test('when a secret key is set, then secrets are sealed and open again; without one they stay as given', () => {
    const box = createSecretBox('k'.repeat(32));
    const sealed = box.seal('whsec_abc');
    expect(sealed).toMatch(/^enc:v1:/);
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.open('whsec_plain')).toBe('whsec_plain');
    expect(createSecretBox(undefined).seal('whsec_abc')).toBe('whsec_abc');
    expect(() => createSecretBox(undefined).open(sealed)).toThrow(SecretKeyMissingError);
    expect(() => createSecretBox('x'.repeat(32)).open(sealed)).toThrow();
  });
});
