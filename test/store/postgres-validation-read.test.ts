import { CompiledQuery, sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { VALIDATION_STATE } from '../../src/store/dialects/postgres/postgres-change-statements.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { useApp, type TestApp } from '../fixtures/test-app.js';

const PARTNERS = 100;
const MEMBERS = 2_000;
const BATCH = 14;
const AT = 1_800_000_000_000;

/** The work is set up and read inside a transaction that is then rolled back: nothing is left for the other tests. */
class RolledBack extends Error {}

/** A network of PARTNERS partners, each with one gym and one product, and one pending check-in per member. */
async function addNetwork(trx: Kysely<Database>): Promise<{ platformId: string; gymId: number }[]> {
  const partners = await trx
    .insertInto('partners')
    .values(Array.from({ length: PARTNERS }, (_, i) => ({ name: `Read partner ${i}`, created_at: AT })))
    .returning('id')
    .execute();
  const gyms = partners.map((partner, i) => ({
    id: 900_000 + i,
    partner_id: Number(partner.id),
    name: `Read gym ${i}`,
    created_at: AT,
  }));
  await trx.insertInto('gyms').values(gyms).execute();
  const products = await trx
    .insertInto('products')
    .values(
      gyms.map((gym) => ({
        gym_id: gym.id,
        description: `Day pass ${gym.id}`,
        payout_cents: 500,
        currency: 'EUR',
        created_at: AT,
      })),
    )
    .returning(['id', 'gym_id'])
    .execute();
  const members = Array.from({ length: MEMBERS }, (_, i) => {
    const product = products[i % PARTNERS];
    return {
      platform_id: `read-member-${i}`,
      gym_id: Number(product?.gym_id),
      product_id: Number(product?.id),
      status: 'pending' as const,
      checked_in_at: AT,
      expires_at: AT + 86_400_000,
      created_at: AT,
    };
  });
  for (let start = 0; start < members.length; start += 500)
    await trx
      .insertInto('checkins')
      .values(members.slice(start, start + 500))
      .execute();
  await sql`analyze partners, gyms, products, checkins`.execute(trx);
  return members.map((member) => ({ platformId: member.platform_id, gymId: member.gym_id }));
}

/** Every node of a plan (PostgreSQL's `explain (format json)`), the plan's own first. */
type PlanNode = Record<string, unknown> & { readonly Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe.runIf(pgAvailable)('postgres: the batched validation read', () => {
  let t: TestApp;
  const app = useApp({ dialect: 'postgres' });
  beforeAll(() => {
    t = app();
  });

  test("when a batch of validations is read in a network of a hundred products, then each request looks up its check-in's product alone, without hashing every product once per request", async () => {
    await expect(
      t.store.db.transaction().execute(async (trx) => {
        const members = await addNetwork(trx);
        const requests = members.slice(0, BATCH).map(({ platformId, gymId }) => ({
          gym_id: gymId,
          platform_id: platformId,
          wants_code: false,
          now: AT + 1_000,
          priced: false,
          partner_id: null,
          month: null,
          scope: null,
          marks_since: AT - 86_400_000,
        }));
        const parameter = JSON.stringify(requests);

        const rows = await trx.executeQuery<{ description: string; payout_cents: string | number }>(
          CompiledQuery.raw(VALIDATION_STATE, [parameter]),
        );
        const explained = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          CompiledQuery.raw(`explain (analyze, format json) ${VALIDATION_STATE}`, [parameter]),
        );

        expect(rows.rows.map((row) => [row.description, Number(row.payout_cents)])).toEqual(
          requests.map((request) => [`Day pass ${request.gym_id}`, 500]),
        );
        // Nothing is hashed once per request: the product of each request's check-in is looked up on its own.
        const nodes = nodesOf(explained.rows[0]?.['QUERY PLAN'][0].Plan ?? {});
        const rebuilt = nodes.filter(
          (node) => node['Node Type'] === 'Hash' && Number(node['Actual Loops']) > 1,
        );
        expect(nodes.some((node) => node['Relation Name'] === 'products')).toBe(true);
        expect(rebuilt).toEqual([]);
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
  });
});
