import { OPERATOR, type Actor } from '../domain/audit.js';
import type { ListedEntry, LedgerEntry, PayoutLine, Reversal } from '../domain/entities.js';
import { InputError } from '../domain/errors.js';
import { exportPeriod } from '../domain/export-period.js';
import { assertOperatorText, TEXT_LIMITS } from '../domain/operator-text.js';
import {
  decodeCursor,
  encodeCursor,
  toFeedPage,
  toPage,
  type FeedPage,
  type FeedPosition,
  type Page,
  type PageRequest,
} from '../domain/pagination.js';
import {
  listEntries,
  listGymEntries,
  listGymEntriesNewestFirst,
  sumPayouts,
  type GymEntry,
} from '../store/ledger/ledger-reports.js';
import type { EntryFilter } from '../store/ledger/ledger-entries.js';
import { readSandboxPartnerIds } from '../store/catalog/sandbox-partners.js';
import { reversedCentsOf } from '../store/ledger/reversal-repository.js';
import type { ServiceDependencies } from './dependencies.js';

const EXPORT_BATCH = 1000;

function assertPeriod(filter: EntryFilter): void {
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw new InputError('to', 'must be later than from');
  }
}

export interface ReversalInput {
  readonly transactionId: number;
  readonly reason: string;
  readonly amountCents?: number;
}

/**
 * The ledger the platform pays gyms from: one entry per validated visit, and the reversals that correct them.
 * Entries are never edited: a correction is a new entry linked to the visit.
 */
export function createLedgerService({ store, clock, config }: ServiceDependencies) {
  /** The period's entries summed per partner, gym and currency (default: today in the network's zone). */
  const payoutsOf = (filter: EntryFilter & { sandbox: boolean }): Promise<PayoutLine[]> => {
    const period = exportPeriod(filter, clock.now(), config.timezone);
    assertPeriod(period);
    return sumPayouts(store.db, { ...filter, ...period });
  };
  return {
    /** A page of the ledger, each visit with what its reversals took back so far and each entry's environment. */
    async list(filter: EntryFilter, page: PageRequest): Promise<Page<ListedEntry>> {
      assertPeriod(filter);
      const entries = await listEntries(store.db, filter, page);
      const visits = entries.filter((entry) => entry.kind === 'visit').map((entry) => entry.id);
      const [sandbox, reversed] = await Promise.all([
        readSandboxPartnerIds(store.db),
        reversedCentsOf(store.db, visits),
      ]);
      const listed = entries.map((entry) => ({
        ...entry,
        sandbox: sandbox.has(entry.partnerId),
        reversedCents: entry.kind === 'visit' ? (reversed.get(entry.id) ?? 0) : 0,
      }));
      return toPage(listed, page.limit, page.order);
    },

    /**
     * Every matching entry, each saying whether its partner is a sandbox one, read in keyset batches so an export of
     * any size keeps memory flat.
     */
    async *exportAll(filter: EntryFilter): AsyncGenerator<LedgerEntry & { readonly sandbox: boolean }> {
      assertPeriod(filter);
      const sandbox = await readSandboxPartnerIds(store.db);
      let afterId = 0;
      for (;;) {
        // Repositories return up to limit + 1 rows: more than EXPORT_BATCH means there may be more to read.
        const rows = await listEntries(store.db, filter, { afterId, limit: EXPORT_BATCH });
        for (const row of rows) yield { ...row, sandbox: sandbox.has(row.partnerId) };
        const last = rows[rows.length - 1];
        if (rows.length <= EXPORT_BATCH || last === undefined) return;
        afterId = last.id;
      }
    },

    /** The partner feed: never skips a row, and always says where to continue. */
    async listForGym(
      filter: EntryFilter & { gymId: number },
      after: FeedPosition,
      limit: number,
    ): Promise<FeedPage<GymEntry>> {
      assertPeriod(filter);
      const rows = await listGymEntries(store.db, filter, after, limit);
      return toFeedPage(rows, limit, after);
    },

    /**
     * The partner's entries newest first (`order=desc`), a page at a time: the cursor is the last id seen, and
     * `hasMore` says whether older entries follow.
     */
    async listForGymNewestFirst(
      filter: EntryFilter & { gymId: number },
      cursor: string | undefined,
      limit: number,
    ): Promise<FeedPage<GymEntry>> {
      assertPeriod(filter);
      const beforeId = decodeCursor(cursor, 'desc');
      const rows = await listGymEntriesNewestFirst(store.db, filter, beforeId, limit);
      const items = rows.slice(0, limit);
      return {
        items,
        nextCursor: encodeCursor(items.at(-1)?.id ?? beforeId, 'desc'),
        hasMore: rows.length > limit,
      };
    },

    /** Sandbox visits never count: only live partners' entries are owed. */
    payouts(filter: EntryFilter): Promise<PayoutLine[]> {
      return payoutsOf({ ...filter, sandbox: false });
    },

    /** What sandbox partners' visits would come to: never owed, only ever summed apart from the live ones. */
    sandboxPayouts(filter: EntryFilter): Promise<PayoutLine[]> {
      return payoutsOf({ ...filter, sandbox: true });
    },

    /** Reverses a visit wholly (by default) or in part: a new entry, effective now. */
    reverse(input: ReversalInput, actor: Actor = OPERATOR): Promise<Reversal> {
      assertOperatorText('reason', input.reason, TEXT_LIMITS.reason);
      return store.apply('reverse-transaction', {
        transactionId: input.transactionId,
        reason: input.reason,
        amountCents: input.amountCents,
        now: clock.now(),
        actor,
      });
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
