import type { Checkin } from '../domain/entities.js';
import type { MemberDetails } from '../domain/member-details.js';
import { EntityNotFoundError } from '../domain/errors.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { findCheckin, listCheckins, type CheckinFilter } from '../store/access/checkin-repository.js';
import { listWaitingCheckins, type WaitingCheckin } from '../store/access/waiting-list-repository.js';
import type { ServiceDependencies } from './dependencies.js';
import type { FleetGate } from './fleet-gate.js';

export interface NewCheckin {
  readonly platformId: string;
  readonly gymId: number;
  readonly productId: number;
  /** Defaults to now; an earlier time lets sandboxes and tests make expired check-ins. */
  readonly checkedInAt?: number;
  readonly member?: MemberDetails;
}

/** The member's check-in: created by the member app, cancellable until validated, expiring after its TTL. */
export function createCheckinService(
  { store, clock, config }: ServiceDependencies,
  fleet: Pick<FleetGate, 'plansInEffect'>,
) {
  return {
    async create(input: NewCheckin, actor: Actor = OPERATOR): Promise<Checkin> {
      const now = clock.now();
      const plans = await fleet.plansInEffect();
      return store.apply('create-checkin', {
        ...input,
        checkedInAt: input.checkedInAt ?? now,
        now,
        actor,
        ttlMs: config.checkinTtlSeconds * 1000,
        dailyVisitLimit: config.dailyVisitLimit,
        timezone: config.timezone,
        plans,
        defaultPlan: config.defaultPlan,
      });
    },

    /** Idempotent until validated: a cancelled or expired check-in comes back cancelled; a validated one is 409. */
    cancel(id: number, actor: Actor = OPERATOR): Promise<Checkin> {
      return store.apply('cancel-checkin', { checkinId: id, now: clock.now(), actor });
    },

    async list(filter: CheckinFilter, page: PageRequest): Promise<Page<Checkin>> {
      return toPage(await listCheckins(store.db, filter, page, clock.now()), page.limit, page.order);
    },

    /** The members waiting at a gym's front desk: pending check-ins that have not expired. */
    async waiting(gymId: number, page: PageRequest): Promise<Page<WaitingCheckin>> {
      return toPage(await listWaitingCheckins(store.db, gymId, clock.now(), page), page.limit);
    },

    async get(id: number): Promise<Checkin> {
      const checkin = await findCheckin(store.db, id);
      if (checkin === undefined) throw new EntityNotFoundError('checkin');
      return checkin;
    },
  };
}

export type CheckinService = ReturnType<typeof createCheckinService>;
