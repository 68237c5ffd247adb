import type { Checkin } from '../domain/entities.js';
import {
  CheckinValidatedConflictError,
  DailyLimitError,
  EntityNotFoundError,
  InputError,
} from '../domain/errors.js';
import { localDayBounds } from '../domain/local-day.js';
import { findGym, findProduct } from '../store/catalog-repository.js';
import {
  cancelPendingCheckin,
  countValidatedCheckins,
  findCheckin,
  insertCheckin,
  listCheckins,
  type CheckinFilter,
} from '../store/checkin-repository.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import { memberLockKey } from '../store/validation-unit.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { recordAudit } from '../store/audit-repository.js';
import type { ServiceDependencies } from './dependencies.js';

export interface NewCheckin {
  readonly platformId: string;
  readonly gymId: number;
  readonly productId: number;
  /** Defaults to now; an earlier time lets sandboxes and tests make expired check-ins. */
  readonly checkedInAt?: number;
}

/** The member's check-in: created by the member app, cancellable until validated, expiring (product.md §3). */
export function createCheckinService({ store, clock, config }: ServiceDependencies) {
  return {
    create(input: NewCheckin, actor: Actor = OPERATOR): Promise<Checkin> {
      // One write transaction: creating and validating check-ins of one member·gym are serialised, so the
      // daily limit holds under races.
      return store.write(async (trx) => {
        if ((await findGym(trx, input.gymId)) === undefined) throw new EntityNotFoundError('gym');
        const product = await findProduct(trx, input.productId);
        if (product === undefined) throw new EntityNotFoundError('product');
        if (product.gymId !== input.gymId) throw new InputError('product_id', 'is not a product of that gym');
        await store.serialize(trx, memberLockKey(input));
        const now = clock.now();
        const checkedInAt = input.checkedInAt ?? now;
        if (config.dailyVisitLimit > 0) {
          const day = localDayBounds(checkedInAt, config.timezone);
          const visits = await countValidatedCheckins(trx, input, day.start, day.end);
          if (visits >= config.dailyVisitLimit) throw new DailyLimitError();
        }
        const checkin = await insertCheckin(
          trx,
          { ...input, checkedInAt, expiresAt: checkedInAt + config.checkinTtlSeconds * 1000 },
          now,
        );
        await recordAudit(trx, { actor, action: 'create', entity: 'checkin', entityId: checkin.id }, now);
        return checkin;
      });
    },

    /** Idempotent until validated: a cancelled or expired check-in comes back cancelled; a validated one is 409. */
    cancel(id: number, actor: Actor = OPERATOR): Promise<Checkin> {
      return store.write(async (trx) => {
        const checkin = await findCheckin(trx, id);
        if (checkin === undefined) throw new EntityNotFoundError('checkin');
        if (checkin.status === 'validated') throw new CheckinValidatedConflictError();
        const now = clock.now();
        if (!(await cancelPendingCheckin(trx, id, now))) return checkin;
        await recordAudit(trx, { actor, action: 'cancel', entity: 'checkin', entityId: id }, now);
        return { ...checkin, status: 'cancelled', cancelledAt: now };
      });
    },

    async list(filter: CheckinFilter, page: PageRequest): Promise<Page<Checkin>> {
      return toPage(await listCheckins(store.db, filter, page, clock.now()), page.limit);
    },

    async get(id: number): Promise<Checkin> {
      const checkin = await findCheckin(store.db, id);
      if (checkin === undefined) throw new EntityNotFoundError('checkin');
      return checkin;
    },
  };
}

export type CheckinService = ReturnType<typeof createCheckinService>;
