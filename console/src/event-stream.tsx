import { authHeaders, type Session } from './session.js';
import type { StreamEvent } from './wire.js';
import { t } from './strings/index.js';
export type { StreamEvent } from './wire.js';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'refused';

const RETRY_MS = 2000;

function parseBlock(block: string): { id?: string; event?: string; data?: string } {
  const message: { id?: string; event?: string; data?: string } = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' || field === 'event') message[field] = value;
    if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
  }
  return message;
}

/**
 * Follows a server-sent event stream with fetch (EventSource cannot send Authorization), reconnecting from the last
 * position it got: no event is missed across a dropped connection, a server restart or the stream's lifetime. A
 * stream the server ended because the credentials were revoked or expired (`event: end`) asks to sign in again.
 * Returns a stop function.
 */
export function followEvents(
  session: Session,
  path: string,
  onEvent: (event: StreamEvent) => void,
  onState: (state: StreamState) => void = () => undefined,
): () => void {
  const stop = new AbortController();
  let lastId: string | undefined;

  /** Resolves with the reason when the server ended the stream with `event: end`. */
  async function readOnce(): Promise<string | undefined> {
    const headers: Record<string, string> = { ...authHeaders(session), accept: 'text/event-stream' };
    if (lastId !== undefined) headers['last-event-id'] = lastId;
    const response = await fetch(path, { headers, signal: stop.signal });
    // A revoked key or a changed token will not come back by retrying: say so and stop.
    if (response.status === 401 || response.status === 403) {
      onState('refused');
      stop.abort();
      return undefined;
    }
    if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const message = parseBlock(block);
        if (message.id !== undefined) lastId = message.id;
        if (message.event === 'end') return (JSON.parse(message.data ?? '{}') as { reason?: string }).reason;
        if (message.event === 'ready') onState('live');
        else if (message.data !== undefined) onEvent(JSON.parse(message.data) as StreamEvent);
      }
    }
  }

  void (async () => {
    onState('connecting');
    while (!stop.signal.aborted) {
      const ended = await readOnce().catch(() => undefined);
      if (stop.signal.aborted) return;
      // Revoked or expired credentials will not come back by reconnecting: say so and stop.
      if (ended === 'revoked' || ended === 'expired') {
        onState('refused');
        stop.abort();
        return;
      }
      onState('reconnecting');
      // The stream's lifetime: reconnect at once, from the last position; otherwise give the server a moment.
      if (ended !== 'lifetime') await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  })();
  return () => stop.abort();
}

export function StreamStatus({ state }: { state: StreamState }) {
  return <>{t.stream[state]}</>;
}
