import { describe, expect, test } from 'vitest';
import { pgAvailable } from '../fixtures/postgres.js';
import { expectLedgerInvariants } from '../fixtures/store-state.js';
import { useTwoProcesses } from '../fixtures/processes/arrange.js';
import { send, validate, type Outcome } from '../fixtures/processes/http.js';

const CHECKINS = 600;
const CONCURRENCY = 40;
const ADMIN_TOKEN = 'operator-secret-feed-storm-0001';

function bodyOf<T>(outcome: Outcome): T {
  if (outcome.kind !== 'response' || outcome.status !== 200) {
    throw new Error(`expected 200, got ${JSON.stringify(outcome)}`);
  }
  return outcome.body as T;
}

interface FeedPage {
  results: { id: number }[];
  next_cursor: string;
  has_more: boolean;
}
interface LogPage {
  items: { id: string }[];
  next_after: number;
  has_more: boolean;
}

describe.skipIf(!pgAvailable)(
  'the partner feed and the event log during a storm on two PostgreSQL processes',
  () => {
    const twoProcesses = useTwoProcesses();

    test('when partners follow next_cursor and operators follow next_after while two processes validate, then each reader sees every row exactly once', async () => {
      const { operator, arranged, servers } = await twoProcesses('postgres', {
        checkins: CHECKINS,
        env: { GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN, GATEHOUSE_RATE_LIMIT_PER_SECOND: '0' },
      });
      const urls = servers.map((server) => server.baseUrl);
      const start = await operator.store.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('position').as('last'))
        .executeTakeFirst();
      const startPosition = Number(start?.last ?? 0);

      let storming = true;
      let polls = 0;
      /** Follows the partner feed by cursor, alternating processes, until after the storm a page finds nothing. */
      const followFeed = async (first: number): Promise<number[]> => {
        const seen: number[] = [];
        let cursor: string | undefined;
        for (let round = first; ; round += 1) {
          // Only a page asked for after the storm ended can say that nothing more is coming.
          const final = !storming;
          const query = `?limit=100${cursor === undefined ? '' : `&cursor=${cursor}`}`;
          const page = bodyOf<FeedPage>(
            await send(urls[round % 2] ?? '', 'GET', `/access/v1/transactions${query}`, {
              headers: arranged.headers,
            }),
          );
          seen.push(...page.results.map((row) => row.id));
          cursor = page.next_cursor;
          polls += 1;
          if (final && !page.has_more && page.results.length === 0) return seen;
        }
      };
      /** Follows the event log by position, the same way. */
      const followLog = async (first: number): Promise<string[]> => {
        const seen: string[] = [];
        let after = startPosition;
        for (let round = first; ; round += 1) {
          const final = !storming;
          const page = bodyOf<LogPage>(
            await send(urls[round % 2] ?? '', 'GET', `/admin/v1/events?after=${after}&limit=100`, {
              headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
            }),
          );
          seen.push(...page.items.map((event) => event.id));
          after = page.next_after;
          if (final && !page.has_more && page.items.length === 0) return seen;
        }
      };
      // Several readers on each process, each polling as fast as it is answered: a row that committed behind one of
      // them would be missed by it.
      const feedReaders = Promise.all([0, 1, 0, 1].map(followFeed));
      const logReaders = Promise.all([0, 1].map(followLog));

      const queue = [...arranged.checkins];
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          for (let checkin = queue.shift(); checkin !== undefined; checkin = queue.shift()) {
            const outcome = await validate(
              urls[worker % 2] ?? '',
              arranged.headers,
              checkin.platformId,
              20_000,
            );
            statuses.push(outcome.kind === 'response' ? outcome.status : -1);
          }
        }),
      );
      storming = false;
      const [feeds, logs] = await Promise.all([feedReaders, logReaders]);

      expect(statuses.filter((status) => status === 200)).toHaveLength(CHECKINS);
      const ledger = await operator.store.db
        .selectFrom('transactions')
        .select('id')
        .where('gym_id', '=', arranged.gym.id)
        .orderBy('id')
        .execute();
      expect(ledger).toHaveLength(CHECKINS);
      for (const seen of feeds) {
        expect(
          [...seen].sort((a, b) => a - b),
          'a feed reader: every transaction, exactly once',
        ).toEqual(ledger.map((row) => row.id));
      }
      const logged = await operator.store.db
        .selectFrom('events')
        .select('id')
        .where('position', '>', startPosition)
        .orderBy('position')
        .execute();
      expect(logged).toHaveLength(CHECKINS);
      for (const seen of logs) {
        expect(seen, 'a log reader: every event, exactly once, in position order').toEqual(
          logged.map((row) => row.id),
        );
      }
      expect(polls, 'the feed readers polled while the storm ran').toBeGreaterThan(8);
      await expectLedgerInvariants(operator.store);
    });
  },
);
