import pg from 'pg';

export const KEY_CHANNEL = 'gatehouse_keys';
const RECONNECT_MS = 1000;

/**
 * A dedicated connection LISTENing for key changes. When it drops, listeners are told (changes may have been
 * missed) and it reconnects; until then the cache TTL bounds staleness.
 */
export function listenForKeyChanges(
  connectionString: string,
  connectTimeoutMs: number,
  onChange: () => void,
  onError: (error: Error) => void,
): () => Promise<void> {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const reconnectLater = () => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, RECONNECT_MS);
    timer.unref();
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs });
    next.on('notification', () => onChange());
    next.on('error', (error) => {
      onError(error);
      onChange();
      reconnectLater();
    });
    next.on('end', () => {
      onChange();
      reconnectLater();
    });
    try {
      await next.connect();
      await next.query(`listen ${KEY_CHANNEL}`);
      if (closed) await next.end();
      else client = next;
      // Whatever happened while disconnected is unknown: start from a clean cache.
      onChange();
    } catch (error) {
      onError(error as Error);
      await next.end().catch(() => undefined);
      reconnectLater();
    }
  };

  void connect();
  return async () => {
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    await client?.end().catch(() => undefined);
  };
}
