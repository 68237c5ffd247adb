import type { LedgerTransaction, PayoutLine } from '../domain/entities.js';
import { InputError } from '../domain/errors.js';
import {
  toFeedPage,
  toPage,
  type FeedPage,
  type FeedPosition,
  type Page,
  type PageRequest,
} from '../domain/pagination.js';
import {
  listGymTransactions,
  listTransactions,
  sumPayouts,
  type GymTransaction,
  type TransactionFilter,
} from '../store/transaction-repository.js';
import type { ServiceDependencies } from './dependencies.js';

const EXPORT_BATCH = 1000;

function assertPeriod(filter: TransactionFilter): void {
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw new InputError('to', 'must be later than from');
  }
}

/** The transaction ledger the platform pays gyms from: one transaction per validated check-in. */
export function createLedgerService({ store }: ServiceDependencies) {
  return {
    async list(filter: TransactionFilter, page: PageRequest): Promise<Page<LedgerTransaction>> {
      assertPeriod(filter);
      return toPage(await listTransactions(store.db, filter, page), page.limit);
    },

    /** Every matching transaction, read in keyset batches so an export of any size keeps memory flat. */
    async *exportAll(filter: TransactionFilter): AsyncGenerator<LedgerTransaction> {
      assertPeriod(filter);
      let afterId = 0;
      for (;;) {
        // Repositories return up to limit + 1 rows: more than EXPORT_BATCH means there may be more to read.
        const rows = await listTransactions(store.db, filter, { afterId, limit: EXPORT_BATCH });
        yield* rows;
        const last = rows[rows.length - 1];
        if (rows.length <= EXPORT_BATCH || last === undefined) return;
        afterId = last.id;
      }
    },

    /** The partner feed: never skips a row, and always says where to continue. */
    async listForGym(
      filter: TransactionFilter & { gymId: number },
      after: FeedPosition,
      limit: number,
    ): Promise<FeedPage<GymTransaction>> {
      assertPeriod(filter);
      const rows = await listGymTransactions(store.db, filter, after, limit);
      return toFeedPage(rows, limit, after);
    },

    /** Sandbox visits never count: only live partners' transactions are owed. */
    payouts(filter: TransactionFilter & { from: number; to: number }): Promise<PayoutLine[]> {
      assertPeriod(filter);
      return sumPayouts(store.db, { ...filter, sandbox: false });
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
