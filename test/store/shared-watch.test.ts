import { describe, expect, test } from 'vitest';
import { sharedWatch } from '../../src/store/shared-watch.js';

describe('one source of key changes for every watcher of a process', () => {
  test('when three caches watch, then the source starts once, with the first, and each change reaches all three', () => {
    const started: (() => void)[] = [];
    const watch = sharedWatch((notify) => started.push(notify));
    const seen: string[] = [];

    watch(() => seen.push('keys'));
    watch(() => seen.push('payout rules'));
    watch(() => seen.push('gyms'));
    expect(started).toHaveLength(1);
    expect(seen).toEqual([]);

    started[0]?.();
    started[0]?.();
    expect(seen).toEqual(['keys', 'payout rules', 'gyms', 'keys', 'payout rules', 'gyms']);
  });
});
