import { findGym } from '../store/catalog/catalog-repository.js';
import type { ServiceDependencies } from './dependencies.js';

const MAX_ENTRIES = 100_000;

/**
 * Which partner owns each gym, as key authorization asks on every partner request. Gyms never change partner, so
 * an owner is kept for good. A gym that does not exist is remembered too, for at most GATEHOUSE_KEY_CACHE_SECONDS
 * and until any process announces a change (a gym created here is noted at once): an unknown gym and another
 * partner's gym are then refused after the same work, and timing tells a prober nothing about which gyms exist.
 */
export function createGymOwners({
  store,
  clock,
  config,
}: Pick<ServiceDependencies, 'store' | 'clock' | 'config'>) {
  const ttlMs = config.keyCacheSeconds * 1000;
  const entries = new Map<number, { owner: number } | { owner: undefined; until: number }>();
  const remember = (gymId: number, entry: { owner: number } | { owner: undefined; until: number }) => {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(gymId, entry);
  };
  return {
    async ownerOf(gymId: number): Promise<number | undefined> {
      const entry = entries.get(gymId);
      if (entry !== undefined && (entry.owner !== undefined || clock.now() < entry.until)) return entry.owner;
      const gym = await findGym(store.db, gymId);
      if (gym !== undefined) remember(gymId, { owner: gym.partnerId });
      else if (ttlMs > 0) remember(gymId, { owner: undefined, until: clock.now() + ttlMs });
      return gym?.partnerId;
    },
    /** A gym this process created: known from now on, whatever was remembered of its id before. */
    noteCreated(gymId: number, partnerId: number): void {
      remember(gymId, { owner: partnerId });
    },
    /** Another process may have created gyms: forget which ones were unknown. */
    forgetUnknown(): void {
      for (const [gymId, entry] of entries) if (entry.owner === undefined) entries.delete(gymId);
    },
  };
}

export type GymOwners = ReturnType<typeof createGymOwners>;
