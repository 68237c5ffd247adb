import { mustExist } from '../domain/must-exist.js';
import { DEFAULT_CATEGORY } from '../domain/plans/plan.js';
import { EntityExistsError, InputError } from '../domain/errors.js';
import { MAX_ID } from '../domain/identifiers.js';
import type { Gym, Partner, Product } from '../domain/entities.js';
import {
  findGym,
  findPartner,
  hasAnyPartner,
  insertGym,
  insertPartner,
  insertProduct,
  listGymProducts,
  listGyms,
  listPartners,
} from '../store/catalog/catalog-repository.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { assertOperatorText, TEXT_LIMITS } from '../domain/operator-text.js';
import { nameHolds } from '../domain/name-search.js';
import { parseTimeZone } from '../domain/time-zone.js';
import { recordAudit } from '../store/access/audit-repository.js';
import type { Store } from '../store/store.js';
import type { ServiceDependencies } from './dependencies.js';
import type { GymOwners } from './gym-owners.js';

const NAME_SCAN_BATCH = 500;

/**
 * The partners whose name holds `name`, up to a page and one more: the partners table read in id order a batch at
 * a time. A network has a few hundred partners (companies, not members), and Unicode case folding is the same on
 * both databases only outside SQL (SQLite's lower() folds ASCII alone).
 */
async function partnersNamed(db: Store['db'], name: string, page: PageRequest): Promise<Partner[]> {
  const found: Partner[] = [];
  let afterId = page.afterId;
  for (;;) {
    const rows = await listPartners(db, { afterId, limit: NAME_SCAN_BATCH });
    const batch = rows.slice(0, NAME_SCAN_BATCH);
    for (const partner of batch) {
      if (nameHolds(partner.name, name)) found.push(partner);
      if (found.length > page.limit) return found;
    }
    const last = batch.at(-1);
    if (rows.length <= NAME_SCAN_BATCH || last === undefined) return found;
    afterId = last.id;
  }
}

export interface NewProduct {
  readonly id?: number;
  readonly description: string;
  readonly payoutCents?: number;
  readonly currency?: string;
  /** What plans name it by; `standard` when left out. */
  readonly category?: string;
}

/**
 * A generated id follows the greatest one: after a gym or product created with an id near MAX_ID it would pass it,
 * and no request could name it (X-Gym-Id, product_id). The write is undone and the operator asked for an id.
 */
function assertNameable(id: number): void {
  if (id > MAX_ID) {
    throw new InputError('id', `must be given: the next id after the greatest one would pass ${MAX_ID}`);
  }
}

/** Partners, their gyms and the products members check in for. */
export function createCatalogService(
  { store, clock, config }: ServiceDependencies,
  gymOwners?: Pick<GymOwners, 'noteCreated'>,
) {
  return {
    /** True when nothing has been set up yet: the only database a first run may seed with demo data. */
    async isEmpty(): Promise<boolean> {
      return !(await hasAnyPartner(store.db));
    },

    /** A sandbox partner's keys start ghk_test_, and its visits never count in payouts. */
    async createPartner(name: string, actor: Actor = OPERATOR, sandbox = false): Promise<Partner> {
      assertOperatorText('name', name, TEXT_LIMITS.name);
      return store.write(async (trx) => {
        const partner = await insertPartner(trx, name, clock.now(), sandbox);
        await recordAudit(
          trx,
          { actor, action: 'create', entity: 'partner', entityId: partner.id },
          clock.now(),
        );
        return partner;
      });
    },

    /** Partners in id order; with `name`, those whose name holds it, whatever the case. */
    async listPartners(page: PageRequest, filter: { name?: string } = {}): Promise<Page<Partner>> {
      if (filter.name === undefined) return toPage(await listPartners(store.db, page), page.limit);
      return toPage(await partnersNamed(store.db, filter.name, page), page.limit);
    },

    async listGyms(filter: { partnerId?: number }, page: PageRequest): Promise<Page<Gym>> {
      return toPage(await listGyms(store.db, filter, page), page.limit);
    },

    async getPartner(id: number): Promise<Partner> {
      return mustExist(await findPartner(store.db, id), 'partner');
    },

    async createGym(
      input: { id?: number; partnerId: number; name: string; timezone?: string },
      actor: Actor = OPERATOR,
    ): Promise<Gym> {
      assertOperatorText('name', input.name, TEXT_LIMITS.name);
      const timezone = input.timezone === undefined ? null : parseTimeZone('timezone', input.timezone);
      const created = await store.write(async (trx) => {
        mustExist(await findPartner(trx, input.partnerId), 'partner');
        await store.serialize(trx, 'gyms');
        const gym = await insertGym(trx, { ...input, id: input.id, timezone }, clock.now());
        if (gym === undefined) throw new EntityExistsError('gym');
        assertNameable(gym.id);
        await recordAudit(trx, { actor, action: 'create', entity: 'gym', entityId: gym.id }, clock.now());
        // Other processes may remember this id as an unknown gym: they forget that on commit.
        await store.announceKeyChange(trx);
        return gym;
      });
      gymOwners?.noteCreated(created.id, created.partnerId);
      return created;
    },

    async getGym(id: number): Promise<Gym> {
      return mustExist(await findGym(store.db, id), 'gym');
    },

    listProducts(gymId: number): Promise<Product[]> {
      return listGymProducts(store.db, gymId);
    },

    async createProduct(gymId: number, input: NewProduct, actor: Actor = OPERATOR): Promise<Product> {
      assertOperatorText('description', input.description, TEXT_LIMITS.description);
      return store.write(async (trx) => {
        mustExist(await findGym(trx, gymId), 'gym');
        await store.serialize(trx, 'products');
        const product = await insertProduct(
          trx,
          {
            id: input.id,
            gymId,
            description: input.description,
            payoutCents: input.payoutCents ?? 0,
            currency: input.currency ?? config.currency,
            category: input.category ?? DEFAULT_CATEGORY,
          },
          clock.now(),
        );
        if (product === undefined) throw new EntityExistsError('product');
        assertNameable(product.id);
        await recordAudit(
          trx,
          { actor, action: 'create', entity: 'product', entityId: product.id },
          clock.now(),
        );
        return product;
      });
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
