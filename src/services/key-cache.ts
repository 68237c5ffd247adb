import type { PresentedKey } from '../store/access/api-key-repository.js';

const MAX_ENTRIES = 10_000;

/**
 * Live keys (with their partner's compatibility profile) by the hash of their secret, each kept at most `ttlMs`. Only keys that exist are cached, so garbage
 * tokens cannot fill it; it is emptied whenever a key may have changed anywhere.
 */
export function createKeyCache(ttlMs: number, now: () => number) {
  const entries = new Map<string, { key: PresentedKey; until: number }>();
  return {
    get(hash: string): PresentedKey | undefined {
      const entry = entries.get(hash);
      if (entry === undefined) return undefined;
      if (now() >= entry.until) {
        entries.delete(hash);
        return undefined;
      }
      return entry.key;
    },
    set(hash: string, key: PresentedKey): void {
      if (ttlMs <= 0) return;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(hash, { key, until: now() + ttlMs });
    },
    clear(): void {
      entries.clear();
    },
  };
}
