/** A delivery a claim may take: whose endpoint, whose partner. */
export interface ClaimCandidate {
  readonly endpointId: number;
  readonly partnerId: number;
}

/** Attempts this process has in flight, by endpoint and by partner. */
export interface InFlight {
  readonly byEndpoint: ReadonlyMap<number, number>;
  readonly byPartner: ReadonlyMap<number, number>;
  readonly total: number;
}

export interface FairShareCaps {
  readonly perEndpoint: number;
  readonly perPartner: number;
  readonly total: number;
}

/**
 * Which of the due deliveries a claim takes, in their order: none past an endpoint's, a partner's or the process's
 * cap of attempts in flight. So a slow, dead or failing endpoint holds at most its own cap (and its partner's) of
 * the process's attempts, however many of its deliveries wait: another partner always finds room, and the next
 * claim passes over the endpoints and partners at their cap.
 */
export function fairShare<T extends ClaimCandidate>(
  candidates: readonly T[],
  inFlight: InFlight,
  caps: FairShareCaps,
): T[] {
  const endpoints = new Map(inFlight.byEndpoint);
  const partners = new Map(inFlight.byPartner);
  let total = inFlight.total;
  const chosen: T[] = [];
  for (const candidate of candidates) {
    if (total >= caps.total) break;
    const endpoint = endpoints.get(candidate.endpointId) ?? 0;
    const partner = partners.get(candidate.partnerId) ?? 0;
    if (endpoint >= caps.perEndpoint || partner >= caps.perPartner) continue;
    endpoints.set(candidate.endpointId, endpoint + 1);
    partners.set(candidate.partnerId, partner + 1);
    total += 1;
    chosen.push(candidate);
  }
  return chosen;
}
