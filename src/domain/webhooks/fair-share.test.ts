import { describe, expect, test } from 'vitest';
import { fairShare, type InFlight } from './fair-share.js';

const none: InFlight = { byEndpoint: new Map(), byPartner: new Map(), total: 0 };
const caps = { perEndpoint: 2, perPartner: 3, total: 5 };
const of = (endpointId: number, partnerId: number, n: number) => ({ endpointId, partnerId, n });

describe('fairShare', () => {
  test('when one endpoint has many due deliveries, then it takes no more than its cap and the others still get theirs', () => {
    const candidates = [of(1, 1, 0), of(1, 1, 1), of(1, 1, 2), of(2, 2, 0), of(1, 1, 3)];
    expect(fairShare(candidates, none, caps)).toEqual([of(1, 1, 0), of(1, 1, 1), of(2, 2, 0)]);
  });

  test("when a partner's endpoints together reach its cap, then another partner's endpoint is still taken", () => {
    const candidates = [of(1, 1, 0), of(2, 1, 0), of(3, 1, 0), of(4, 2, 0)];
    const inFlight = { byEndpoint: new Map([[1, 1]]), byPartner: new Map([[1, 1]]), total: 1 };
    expect(fairShare(candidates, inFlight, caps)).toEqual([of(1, 1, 0), of(2, 1, 0), of(4, 2, 0)]);
  });

  test('when the process is at its total, then nothing more is taken', () => {
    const inFlight = { byEndpoint: new Map(), byPartner: new Map(), total: 5 };
    expect(fairShare([of(9, 9, 0)], inFlight, caps)).toEqual([]);
    expect(fairShare([of(1, 1, 0), of(2, 2, 0), of(3, 3, 0)], { ...none, total: 3 }, caps)).toEqual([
      of(1, 1, 0),
      of(2, 2, 0),
    ]);
  });
});
