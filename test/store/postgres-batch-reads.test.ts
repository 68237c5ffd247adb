import { CompiledQuery, sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../src/store/database.js';
import {
  CREATION_STATE,
  VALIDATION_STATE,
} from '../../src/store/dialects/postgres/postgres-change-statements.js';
import { pgAvailable } from '../fixtures/postgres.js';
import { useApp, type TestApp } from '../fixtures/test-app.js';
import { inChunks, insideRolledBack } from '../fixtures/store-rows.js';

const PARTNERS = 100;
const MEMBERS = 2_000;
const BATCH = 14;
const AT = 1_800_000_000_000;

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
  await inChunks(members, (chunk) => trx.insertInto('checkins').values(chunk).execute());
  await sql`analyze partners, gyms, products, checkins`.execute(trx);
  return members.map((member) => ({ platformId: member.platform_id, gymId: member.gym_id }));
}

/** Every node of a plan (PostgreSQL's `explain (format json)`), the plan's own first. */
type PlanNode = Record<string, unknown> & { readonly Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The statement's rows for the batch's requests, and its plan as run: every node, and the tables it read.
 */
async function readAndExplain<R>(trx: Kysely<Database>, statement: string, requests: readonly object[]) {
  const parameter = JSON.stringify(requests);
  const { rows } = await trx.executeQuery<R>(CompiledQuery.raw(statement, [parameter]));
  const explained = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    CompiledQuery.raw(`explain (analyze, format json) ${statement}`, [parameter]),
  );
  const nodes = nodesOf(explained.rows[0]?.['QUERY PLAN'][0].Plan ?? {});
  return {
    rows,
    tables: new Set(nodes.map((node) => node['Relation Name'])),
    // A hash table built more than once in one statement: built again for each request of the batch.
    rebuiltHashes: nodes.filter((node) => node['Node Type'] === 'Hash' && Number(node['Actual Loops']) > 1),
  };
}

describe.runIf(pgAvailable)('postgres: the batched reads of validations and check-in creations', () => {
  let t: TestApp;
  const app = useApp({ dialect: 'postgres' });
  beforeAll(() => {
    t = app();
  });

  test("when a batch of validations is read in a network of a hundred products, then each request looks up its check-in's product alone, without hashing every product once per request", async () => {
    await insideRolledBack(t, async (trx) => {
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

      const read = await readAndExplain<{ description: string; payout_cents: string | number }>(
        trx,
        VALIDATION_STATE,
        requests,
      );

      expect(read.rows.map((row) => [row.description, Number(row.payout_cents)])).toEqual(
        requests.map((request) => [`Day pass ${request.gym_id}`, 500]),
      );
      expect(read.tables.has('products')).toBe(true);
      expect(read.rebuiltHashes).toEqual([]);
    });
  });

  test("when a batch of creations of members on a plan is read, then each member's check-ins are read with their gym's partner and their product's category, without hashing every gym and product once per request", async () => {
    await insideRolledBack(t, async (trx) => {
      const members = await addNetwork(trx);
      const plan = await trx
        .insertInto('plans')
        .values({ name: 'Read plan', created_at: AT })
        .returning('id')
        .executeTakeFirstOrThrow();
      const rules = JSON.stringify([{ category: 'standard', per: 'day', limit: 2, scope: 'gym' }]);
      await trx
        .insertInto('plan_versions')
        .values({ plan_id: Number(plan.id), version: 1, rules, effective_from: AT - 1_000, created_at: AT })
        .execute();
      const now = AT + 1_000;
      const requests = members.slice(0, BATCH).map(({ platformId, gymId }) => ({
        gym_id: gymId,
        platform_id: platformId,
        product_id: null,
        since: now - 86_400_000,
        until: now + 86_400_000,
        now,
        usage_since: AT - 86_400_000,
        plans: true,
        default_plan: 'Read plan',
      }));
      const seeded = await trx
        .selectFrom('checkins')
        .innerJoin('gyms', 'gyms.id', 'checkins.gym_id')
        .select(['checkins.id', 'checkins.platform_id', 'gyms.partner_id'])
        .where(
          'checkins.platform_id',
          'in',
          requests.map((request) => request.platform_id),
        )
        .execute();

      const read = await readAndExplain<{
        plan_version: number;
        plan_usage: { id: number; partner_id: number; category: string }[];
      }>(trx, CREATION_STATE, requests);

      expect(
        read.rows.map((row) => [
          row.plan_version,
          row.plan_usage.map((usage) => [Number(usage.id), Number(usage.partner_id), usage.category]),
        ]),
      ).toEqual(
        requests.map((request) => {
          const own = seeded.filter((row) => row.platform_id === request.platform_id);
          return [1, own.map((row) => [Number(row.id), Number(row.partner_id), 'standard'])];
        }),
      );
      expect(read.tables.has('gyms')).toBe(true);
      expect(read.rebuiltHashes).toEqual([]);
    });
  });
});
