import { isSandboxKey } from '../domain/api-key.js';
import type { Actor } from '../domain/audit.js';
import type { ApiKey, Checkin } from '../domain/entities.js';
import { EntityNotFoundError, ForbiddenError } from '../domain/errors.js';
import type { MemberDetails } from '../domain/member-details.js';
import { wellhubPayload, type WellhubCheckinPayload } from '../domain/webhooks/wellhub-format.js';
import { checkinEventData } from '../domain/events.js';
import { findGym, findProduct, listGymProducts } from '../store/catalog/catalog-repository.js';
import type { CheckinService } from './checkin-service.js';
import type { ServiceDependencies } from './dependencies.js';

export interface SimulatedCheckin {
  readonly platformId: string;
  /** Default: the gym's first product. */
  readonly productId?: number;
  readonly member?: MemberDetails;
  readonly checkedInAt?: number;
}

/** Who simulates: a key already allowed to act on the gym. */
export interface SandboxCaller {
  readonly key: ApiKey;
  readonly gymId: number;
  readonly actor: Actor;
}

/**
 * The sandbox: a sandbox partner's key simulates members checking in at its own gyms, to test an integration end to
 * end. A simulated check-in is a real one of a sandbox partner (the same events, webhooks and validation); its
 * visits never count in payouts. A live key is refused here, as any refused key is.
 */
export function createSandboxService({ store }: ServiceDependencies, checkins: CheckinService) {
  async function checkIn(caller: SandboxCaller, input: SimulatedCheckin): Promise<Checkin> {
    if (!isSandboxKey(caller.key)) throw new ForbiddenError('live-key', caller.key.prefix);
    const productId = input.productId ?? (await listGymProducts(store.db, caller.gymId))[0]?.id;
    if (productId === undefined) throw new EntityNotFoundError('product');
    return checkins.create(
      {
        platformId: input.platformId,
        gymId: caller.gymId,
        productId,
        ...(input.member === undefined ? {} : { member: input.member }),
        ...(input.checkedInAt === undefined ? {} : { checkedInAt: input.checkedInAt }),
      },
      caller.actor,
    );
  }

  return {
    checkIn,

    /** The same, answered as Wellhub's sandbox helper answers: the `checkin` webhook payload it fires. */
    async simulateWellhub(caller: SandboxCaller, input: SimulatedCheckin): Promise<WellhubCheckinPayload> {
      const checkin = await checkIn(caller, input);
      const [gym, product] = [
        await findGym(store.db, checkin.gymId),
        await findProduct(store.db, checkin.productId),
      ];
      const data = checkinEventData({
        ...checkin,
        product: { id: checkin.productId, description: product?.description ?? '' },
      });
      return wellhubPayload({ data, gym: { id: checkin.gymId, name: gym?.name ?? '' } });
    },
  };
}

export type SandboxService = ReturnType<typeof createSandboxService>;
