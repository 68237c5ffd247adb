import { describe, expect, test } from 'vitest';
import {
  credentialEnded,
  credentialSlot,
  streamQuotaReached,
  type StreamCredential,
} from './event-streams.js';

const KEY: StreamCredential = { kind: 'key', keyId: 7, gymId: 42 };
const OPERATOR: StreamCredential = { kind: 'operator', operatorId: 3 };
const LIMITS = { perCredential: 2, perProcess: 5 };

describe('the event streams a credential and a process may hold', () => {
  test('when a key, an operator or the admin tokens open streams, then each counts in a slot of its own, a key per gym', () => {
    expect(
      [KEY, { ...KEY, gymId: 43 }, OPERATOR, { kind: 'admin-token' } as const].map(credentialSlot),
    ).toEqual(['key:7:gym:42', 'key:7:gym:43', 'operator:3', 'admin-token']);
  });

  test.each([
    [KEY, 1, 4, undefined],
    [KEY, 2, 4, 'event_streams_per_key_gym'],
    [OPERATOR, 2, 4, 'event_streams_per_operator'],
    [{ kind: 'admin-token' } as const, 2, 2, 'event_streams_per_operator'],
    [KEY, 0, 5, 'event_streams_per_process'],
    [OPERATOR, 2, 5, 'event_streams_per_process'],
  ] as const)(
    'when %j holds %i streams and the process %i, then one more passes %s',
    (credential, ofCredential, inProcess, quota) => {
      expect(streamQuotaReached(credential, { ofCredential, inProcess }, LIMITS)).toBe(quota);
    },
  );
});

describe('a credential holds its streams while it lives', () => {
  const NOW = 1_000_000;

  test.each([
    [{ revokedAt: null, expiresAt: null }, undefined],
    [{ revokedAt: null, expiresAt: NOW + 1 }, undefined],
    [{ revokedAt: null, expiresAt: NOW }, 'expired'],
    [{ revokedAt: NOW - 1, expiresAt: NOW - 1 }, 'revoked'],
    [undefined, 'revoked'],
  ] as const)('when the stored credential is %j, then its streams end with %s', (state, reason) => {
    expect(credentialEnded(state, NOW)).toBe(reason);
  });
});
