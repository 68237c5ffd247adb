import { describe, expect, it } from 'vitest';
import { groupedBy } from './grouped.js';

describe('groupedBy', () => {
  it('keeps the items order within each group and the keys in the order they first came', () => {
    const groups = groupedBy(['b1', 'a1', 'b2', 'c1', 'a2'], (item) => item[0]);
    expect([...groups]).toEqual([
      ['b', ['b1', 'b2']],
      ['a', ['a1', 'a2']],
      ['c', ['c1']],
    ]);
  });

  it('leaves out the items without a key, and gives no group for no items', () => {
    expect([...groupedBy([1, 2, 3, 4], (n) => (n % 2 === 0 ? 'even' : undefined))]).toEqual([
      ['even', [2, 4]],
    ]);
    expect(groupedBy([], (n: number) => n).size).toBe(0);
  });
});
