import { credentialEnded, type StreamEndReason } from '../domain/event-streams.js';
import { readCredentialStates } from '../store/access/credential-states.js';
import type { ServiceDependencies } from './dependencies.js';
import type { OpenStream } from './event-streams.js';

/**
 * Reads the credentials of the open streams again every GATEHOUSE_STREAM_CREDENTIAL_CHECK_MS: one statement for
 * the keys and one for the operators, whatever the number of streams, and only while some are open. A key revoked,
 * expired or offboarded, or an operator revoked or expired, by any process sharing the database, ends its streams
 * with the reason. The store is the only source: another process may have made the change.
 */
export function createCredentialWatch(
  { store, clock, config }: Pick<ServiceDependencies, 'store' | 'clock' | 'config'>,
  streams: () => Iterable<OpenStream>,
  end: (stream: OpenStream, reason: StreamEndReason) => void,
) {
  let timer: NodeJS.Timeout | undefined;
  let checking = false;

  async function check(): Promise<void> {
    // Only the streams open now: one opened during the read is not judged by a read that did not look for it.
    const looked = [...streams()];
    const keys = new Set<number>();
    const operators = new Set<number>();
    for (const { credential } of looked) {
      if (credential.kind === 'key') keys.add(credential.keyId);
      if (credential.kind === 'operator') operators.add(credential.operatorId);
    }
    const [keyStates, operatorStates] = await Promise.all([
      readCredentialStates(store.db, 'api_keys', [...keys]),
      readCredentialStates(store.db, 'operators', [...operators]),
    ]);
    const now = clock.now();
    for (const stream of looked) {
      const { credential } = stream;
      if (credential.kind === 'admin-token') continue;
      const state =
        credential.kind === 'key'
          ? keyStates.get(credential.keyId)
          : operatorStates.get(credential.operatorId);
      const reason = credentialEnded(state, now);
      if (reason !== undefined) end(stream, reason);
    }
  }

  const tick = () => {
    if (checking) return;
    checking = true;
    // A failed read (the store unavailable) ends nothing: the next tick reads again.
    void check()
      .catch(() => undefined)
      .finally(() => (checking = false));
  };

  return {
    /** Starts reading, if it is not already. */
    start(): void {
      timer ??= setInterval(tick, config.streamCredentialCheckMs).unref();
    },
    /** No stream is open: nothing to read. */
    stop(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
