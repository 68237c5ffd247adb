/**
 * Who holds an event stream open, and the rules that end it (README, "The event streams"): a stream lives no longer
 * than its credentials, nor past its maximum lifetime, and a credential or a process holds only so many at once.
 */

/** Why the server ended a stream: the last message it sends says so. */
export type StreamEndReason = 'revoked' | 'expired' | 'lifetime' | 'shutdown';

/** The credential a stream was opened with: a partner key acting for one gym, an operator, or an admin token. */
export type StreamCredential =
  | { readonly kind: 'key'; readonly keyId: number; readonly gymId: number }
  | { readonly kind: 'operator'; readonly operatorId: number }
  /** The environment's admin tokens: no row to revoke, so they end only with the lifetime or the server. */
  | { readonly kind: 'admin-token' };

/** The quotas an opening can be refused at, as `/metrics` counts them (`gatehouse_quota_refusals_total`). */
export type StreamQuota =
  'event_streams_per_key_gym' | 'event_streams_per_operator' | 'event_streams_per_process';

export interface StreamLimits {
  /** Open streams per key·gym, and per operator token (the admin tokens count as one). */
  readonly perCredential: number;
  /** Open streams in this process, every credential's. */
  readonly perProcess: number;
}

/** The credential's place in the per-credential count: one key at one gym, one operator, the admin tokens. */
export function credentialSlot(credential: StreamCredential): string {
  switch (credential.kind) {
    case 'key':
      return `key:${credential.keyId}:gym:${credential.gymId}`;
    case 'operator':
      return `operator:${credential.operatorId}`;
    case 'admin-token':
      return 'admin-token';
  }
}

/** The quota one more stream would pass, or undefined when there is room for it. */
export function streamQuotaReached(
  credential: StreamCredential,
  open: { readonly ofCredential: number; readonly inProcess: number },
  limits: StreamLimits,
): StreamQuota | undefined {
  if (open.inProcess >= limits.perProcess) return 'event_streams_per_process';
  if (open.ofCredential < limits.perCredential) return undefined;
  return credential.kind === 'key' ? 'event_streams_per_key_gym' : 'event_streams_per_operator';
}

/** A key's or an operator's row as the store holds it now; undefined when it is gone. */
export interface CredentialState {
  readonly revokedAt: number | null;
  readonly expiresAt: number | null;
}

/** Why a credential no longer holds its streams open at `now`, or undefined while it is live. */
export function credentialEnded(
  state: CredentialState | undefined,
  now: number,
): StreamEndReason | undefined {
  if (state === undefined || state.revokedAt !== null) return 'revoked';
  if (state.expiresAt !== null && now >= state.expiresAt) return 'expired';
  return undefined;
}
