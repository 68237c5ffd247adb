import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { perTurn } from '../../src/cli/per-turn.js';

describe('items gathered per turn of the event loop', () => {
  test('when items come in one turn and then in another, then each turn hands on one batch, in order, and a turn with none hands on nothing', async () => {
    const batches: number[][] = [];
    const gather = perTurn<number>((batch) => batches.push(batch));
    gather(1);
    gather(2);
    await Promise.resolve();
    gather(3);
    expect(batches).toEqual([]);
    await nextTurn();
    await nextTurn();
    gather(4);
    await nextTurn();
    await nextTurn();
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });
});
