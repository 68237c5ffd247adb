import type { Store } from '../store/store.js';
import { touchApiKeys } from '../store/access/api-key-repository.js';

/**
 * `last_used_at` without a write per request: uses are noted in memory and written in one transaction every
 * `flushMs` (and on close). A failed flush keeps the notes for the next one.
 */
export function createKeyUsage(store: Store, flushMs: number) {
  let pending = new Map<number, number>();
  let flushing: Promise<void> | undefined;

  const flush = async (): Promise<void> => {
    await flushing;
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    flushing = store
      .write((trx) => touchApiKeys(trx, batch))
      .catch(() => {
        for (const [id, at] of batch) if ((pending.get(id) ?? 0) < at) pending.set(id, at);
      })
      .finally(() => {
        flushing = undefined;
      });
    await flushing;
  };

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    note(keyId: number, at: number): void {
      pending.set(keyId, at);
    },
    flush,
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}
