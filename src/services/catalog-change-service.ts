import { given } from '../domain/given.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import type { Gym, Partner, Product } from '../domain/entities.js';
import { EntityNotFoundError, InputError } from '../domain/errors.js';
import { assertOperatorText, TEXT_LIMITS } from '../domain/operator-text.js';
import { parseTimeZone } from '../domain/time-zone.js';
import { recordAudit } from '../store/access/audit-repository.js';
import {
  offboardPartnerRows,
  retireRow,
  updateGymRow,
  updatePartnerRow,
  updateProductRow,
} from '../store/catalog/catalog-changes.js';
import { findGym, findPartner, findProduct } from '../store/catalog/catalog-repository.js';
import type { StoreTransaction } from '../store/store.js';
import type { ServiceDependencies } from './dependencies.js';

export interface GymChange {
  readonly name?: string;
  readonly timezone?: string;
}

export interface ProductChange {
  readonly description?: string;
  readonly payoutCents?: number;
  readonly currency?: string;
  readonly category?: string;
}

function assertSomething(change: object): void {
  if (Object.values(change).every((value) => value === undefined))
    throw new InputError('body', 'must change at least one field');
}

/**
 * The catalog over time: renames, a gym's time zone, a product's price (validations from then on pay the new one;
 * transactions keep theirs), retired gyms and products (no new check-ins), offboarded partners. Every change is
 * audited. `forgetKeys` drops this process's cached keys once an offboarding revoked some.
 */
export function createCatalogChangeService({ store, clock }: ServiceDependencies, forgetKeys: () => void) {
  /** Reads the record (404 when missing), makes the change, audits it and answers the record as it now is. */
  async function audited<T>(
    actor: Actor,
    entry: {
      action: 'update' | 'retire' | 'offboard';
      entity: 'partner' | 'gym' | 'product';
      id: number;
      read: (trx: StoreTransaction, id: number) => Promise<T | undefined>;
    },
    work: (trx: StoreTransaction, now: number) => Promise<unknown>,
  ): Promise<T> {
    return store.write(async (trx) => {
      if ((await entry.read(trx, entry.id)) === undefined) throw new EntityNotFoundError(entry.entity);
      const now = clock.now();
      await work(trx, now);
      await recordAudit(trx, { actor, action: entry.action, entity: entry.entity, entityId: entry.id }, now);
      const changed = await entry.read(trx, entry.id);
      if (changed === undefined) throw new EntityNotFoundError(entry.entity);
      return changed;
    });
  }

  return {
    updatePartner(id: number, name: string, actor: Actor = OPERATOR): Promise<Partner> {
      assertOperatorText('name', name, TEXT_LIMITS.name);
      return audited(actor, { action: 'update', entity: 'partner', id, read: findPartner }, (trx) =>
        updatePartnerRow(trx, id, name),
      );
    },

    updateGym(id: number, change: GymChange, actor: Actor = OPERATOR): Promise<Gym> {
      assertSomething(change);
      assertOperatorText('name', change.name, TEXT_LIMITS.name);
      const timezone = change.timezone === undefined ? undefined : parseTimeZone('timezone', change.timezone);
      const row = given({ name: change.name, timezone });
      return audited(actor, { action: 'update', entity: 'gym', id, read: findGym }, (trx) =>
        updateGymRow(trx, id, row),
      );
    },

    updateProduct(id: number, change: ProductChange, actor: Actor = OPERATOR): Promise<Product> {
      assertSomething(change);
      assertOperatorText('description', change.description, TEXT_LIMITS.description);
      const row = given({
        description: change.description,
        payout_cents: change.payoutCents,
        currency: change.currency,
        category: change.category,
      });
      return audited(actor, { action: 'update', entity: 'product', id, read: findProduct }, (trx) =>
        updateProductRow(trx, id, row),
      );
    },

    /** No new check-ins at the gym; pending ones can still be validated until they expire. */
    retireGym(id: number, actor: Actor = OPERATOR): Promise<Gym> {
      return audited(actor, { action: 'retire', entity: 'gym', id, read: findGym }, (trx, now) =>
        retireRow(trx, 'gyms', id, now),
      );
    },

    retireProduct(id: number, actor: Actor = OPERATOR): Promise<Product> {
      return audited(actor, { action: 'retire', entity: 'product', id, read: findProduct }, (trx, now) =>
        retireRow(trx, 'products', id, now),
      );
    },

    /** Every key revoked and webhook disabled, every gym retired; the ledger and settlements stay. */
    async offboardPartner(id: number, actor: Actor = OPERATOR): Promise<Partner> {
      const partner = await audited(
        actor,
        { action: 'offboard', entity: 'partner', id, read: findPartner },
        async (trx, now) => {
          const changed = await offboardPartnerRows(trx, id, now);
          for (const keyId of changed.keys)
            await recordAudit(trx, { actor, action: 'revoke', entity: 'key', entityId: keyId }, now);
          for (const gymId of changed.gyms)
            await recordAudit(trx, { actor, action: 'retire', entity: 'gym', entityId: gymId }, now);
          for (const webhookId of changed.webhooks)
            await recordAudit(trx, { actor, action: 'disable', entity: 'webhook', entityId: webhookId }, now);
          await store.announceKeyChange(trx);
        },
      );
      forgetKeys();
      return partner;
    },
  };
}

export type CatalogChangeService = ReturnType<typeof createCatalogChangeService>;
