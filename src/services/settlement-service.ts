import { actorName, OPERATOR, type Actor } from '../domain/audit.js';
import { EntityNotFoundError } from '../domain/errors.js';
import { assertOperatorText, TEXT_LIMITS } from '../domain/operator-text.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import {
  assertClosablePeriod,
  isLate,
  SettlementOverlapError,
  SettlementPaidError,
  type Period,
  sweepStart,
  type Settlement,
} from '../domain/settlement.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { findPartner } from '../store/catalog/catalog-repository.js';
import { settlementEntries, type DescribedEntry } from '../store/ledger/ledger-reports.js';
import {
  insertSettlement,
  listSettlements,
  markPaid,
  overlappingSettlements,
  type SettlementFilter,
} from '../store/ledger/settlement-repository.js';
import { firstClosedStart, partnersToClose, unsettledTotals } from '../store/ledger/settlement-sweep.js';
import type { StoreTransaction } from '../store/store.js';
import type { ServiceDependencies } from './dependencies.js';

const ONE = { afterId: 0, limit: 1 };
const ALL = { afterId: 0, limit: 100_000 };

/** Which partners a close covers, and the settlements each already has in the period (the same period again). */
async function plan(trx: StoreTransaction, period: Period, partnerId: number | undefined) {
  const partners = partnerId === undefined ? await partnersToClose(trx, period) : [partnerId];
  const existing: number[] = [];
  const toClose: number[] = [];
  for (const partner of partners) {
    const overlapping = await overlappingSettlements(trx, partner, period);
    // Closing the same period again finds what it made; any other overlap refuses the whole close.
    if (overlapping.some((other) => other.start !== period.start || other.end !== period.end))
      throw new SettlementOverlapError(partner);
    existing.push(...overlapping.map((other) => other.id));
    if (overlapping.length === 0) toClose.push(partner);
  }
  return { existing, toClose };
}

/**
 * Settlements: closed periods per partner·currency that hold exactly the entries effective in them that no
 * settlement held yet, and the late ones: earlier entries no settlement holds (committed after their period was
 * closed), back to the partner's first closed period. A settled entry never moves; a later reversal is effective
 * when made, so it lands in the next period closed.
 */
export function createSettlementService({ store, clock }: ServiceDependencies) {
  async function get(id: number, gymIds?: readonly number[]): Promise<Settlement> {
    const [found] = await listSettlements(store.db, { ids: [id] }, ONE, gymIds);
    if (found === undefined) throw new EntityNotFoundError('settlement');
    return found;
  }

  return {
    get,

    /** Closes a period for one partner or every partner with entries in it: all or nothing. */
    async close(
      input: { period: Period; partnerId?: number },
      actor: Actor = OPERATOR,
    ): Promise<Settlement[]> {
      const now = clock.now();
      assertClosablePeriod(input.period, now);
      const ids = await store.write(async (trx) => {
        // One close at a time: two overlapping periods closed together cannot both pass the overlap check.
        await store.serialize(trx, 'settlements');
        if (input.partnerId !== undefined && (await findPartner(trx, input.partnerId)) === undefined)
          throw new EntityNotFoundError('partner');
        const { existing, toClose } = await plan(trx, input.period, input.partnerId);
        const made: number[] = [];
        const createdBy = actorName(actor);
        for (const partnerId of toClose) {
          const sweepFrom = sweepStart(input.period, await firstClosedStart(trx, partnerId));
          const range = { start: sweepFrom, end: input.period.end };
          for (const { currency } of await unsettledTotals(trx, partnerId, range)) {
            const settlement = { partnerId, currency, period: input.period, sweepFrom, createdBy, now };
            made.push(await insertSettlement(trx, settlement));
          }
        }
        for (const id of made)
          await recordAudit(trx, { actor, action: 'close', entity: 'settlement', entityId: id }, now);
        return [...existing, ...made];
      });
      return (await listSettlements(store.db, { ids }, ALL)).sort((a, b) => a.id - b.id);
    },

    /** Marks a closed settlement paid with the payment's reference; the same reference again changes nothing. */
    async pay(id: number, reference: string, actor: Actor = OPERATOR): Promise<Settlement> {
      assertOperatorText('reference', reference, TEXT_LIMITS.reference);
      await store.write(async (trx) => {
        const [current] = await listSettlements(trx, { ids: [id] }, ONE);
        if (current === undefined) throw new EntityNotFoundError('settlement');
        if (current.status === 'paid') {
          if (current.reference === reference) return;
          throw new SettlementPaidError();
        }
        const now = clock.now();
        if (!(await markPaid(trx, id, { reference, by: actorName(actor), at: now })))
          throw new SettlementPaidError();
        await recordAudit(trx, { actor, action: 'pay', entity: 'settlement', entityId: id }, now);
      });
      return get(id);
    },

    async list(
      filter: SettlementFilter,
      page: PageRequest,
      gymIds?: readonly number[],
    ): Promise<Page<Settlement>> {
      return toPage(await listSettlements(store.db, filter, page, gymIds), page.limit, page.order);
    },

    /** Every entry behind a settlement (those of the given gyms only, for a partner's key), the late ones marked. */
    async entries(id: number, gymIds?: readonly number[]): Promise<SettledEntry[]> {
      const settlement = await get(id);
      const period = { start: settlement.periodStart, end: settlement.periodEnd };
      const entries = await settlementEntries(store.db, id, gymIds);
      return entries.map((entry) => ({ ...entry, late: isLate(entry, period) }));
    },
  };
}

/** An entry a settlement holds; late: effective before the settlement's period. */
export interface SettledEntry extends DescribedEntry {
  readonly late: boolean;
}

export type SettlementService = ReturnType<typeof createSettlementService>;
