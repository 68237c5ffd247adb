import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { PlanRule } from '../../src/domain/plans/plan.js';
import { insertPlan, insertPlanVersion, memberPlanVersionAt } from '../../src/store/plans/plan-repository.js';
import {
  memberPlanVersionSql,
  planVersionCache,
  type PlanVersionRow,
} from '../../src/store/plans/plan-state.js';
import { platformId } from '../fixtures/factories.js';
import * as op from '../fixtures/operator-api.js';
import { queryPlan } from '../fixtures/query-plan.js';
import { dialects } from '../fixtures/test-app.js';

const DAY_MS = 86_400_000;
const rule = (limit: number): PlanRule[] => [{ category: 'standard', per: 'day', limit, scope: 'gym' }];

/** The version read every creation makes, as SQL (the batched writers' text), for `member` at `now`. */
function versionRead(member: string, now: number, defaultPlan: string) {
  return sql.raw(memberPlanVersionSql(`'${member}'`, String(now), `'${defaultPlan}'`));
}

describe.each(dialects)('the version of a plan in force, read by its start (%s)', (dialect) => {
  const app = op.operatorApp({ dialect });

  test('when a version is scheduled later than one made after it, then each instant reads the latest started, through the index by start, without sorting', async () => {
    const t = app();
    const name = `In force ${platformId()}`;
    const planId = await insertPlan(t.store.db, name, op.T0_MS);
    await insertPlanVersion(t.store.db, planId, rule(1), op.T0_MS, op.T0_MS);
    await insertPlanVersion(t.store.db, planId, rule(2), op.T0_MS + 10 * DAY_MS, op.T0_MS);
    await insertPlanVersion(t.store.db, planId, rule(3), op.T0_MS + 5 * DAY_MS, op.T0_MS + DAY_MS);
    const member = platformId();

    const read = async (at: number) => {
      const { rows } = await sql<PlanVersionRow>`${versionRead(member, at, name)}`.execute(t.store.db);
      const built = await memberPlanVersionAt(t.store.db, member, at, name);
      return { sql: rows.map((row) => Number(row.version)), builder: built?.version };
    };

    expect(await read(op.T0_MS - 1)).toEqual({ sql: [], builder: undefined });
    expect(await read(op.T0_MS + DAY_MS)).toEqual({ sql: [1], builder: 1 });
    expect(await read(op.T0_MS + 7 * DAY_MS)).toEqual({ sql: [3], builder: 3 });
    expect(await read(op.T0_MS + 12 * DAY_MS)).toEqual({ sql: [2], builder: 2 });
    const plan = await queryPlan(t, dialect, versionRead(platformId(), op.T0_MS, name));
    expect(plan).toContain('plan_versions_in_force');
    if (dialect === 'sqlite') expect(plan).not.toContain('TEMP B-TREE');
    // PostgreSQL: the versions are scanned backwards right under the statement's limit (a line two spaces in is a
    // child of the root), with no sort between.
    else
      expect(plan).toMatch(
        /\n {2}-> {2}Index Scan Backward using plan_versions_in_force on plan_versions v /,
      );
  });
});

describe('the plan versions a store has read', () => {
  const key = (planId: number | string, version: number | string) => ({
    plan_id: planId,
    version,
    effective_from: op.T0_MS,
  });
  const rulesText = (limit: number) => JSON.stringify(rule(limit));

  test('when versions are asked for again, then each one’s rules are read once and the same version answers', () => {
    const reads: string[] = [];
    const versionOf = planVersionCache((planId, version) => {
      reads.push(`${planId}:${version}`);
      return rulesText(planId * 10 + version);
    });

    const first = versionOf(key(1, 1));
    expect(first).toEqual({ planId: 1, version: 1, rules: rule(11), effectiveFrom: op.T0_MS });
    expect(versionOf(key(1, 1))).toBe(first);
    expect(versionOf(key(1, 2))).toEqual({ planId: 1, version: 2, rules: rule(12), effectiveFrom: op.T0_MS });
    expect(versionOf(key(2, 1))).toEqual({ planId: 2, version: 1, rules: rule(21), effectiveFrom: op.T0_MS });
    // PostgreSQL answers bigints as text: the same version.
    expect(versionOf(key('1', '2'))).toBe(versionOf(key(1, 2)));
    expect(reads).toEqual(['1:1', '1:2', '2:1']);
  });

  test('when a version’s rules cannot be found, then the read fails naming it and nothing is kept', () => {
    let stored: string | undefined = undefined;
    const versionOf = planVersionCache(() => stored);

    expect(() => versionOf(key(7, 3))).toThrow(new Error('plan 7 lost its version 3'));
    stored = rulesText(1);
    expect(versionOf(key(7, 3))).toEqual({ planId: 7, version: 3, rules: rule(1), effectiveFrom: op.T0_MS });
  });

  test('when more versions are read than it keeps, then it starts again and reads them anew', () => {
    let reads = 0;
    const versionOf = planVersionCache(() => {
      reads += 1;
      return rulesText(1);
    });

    for (let version = 1; version <= 256; version += 1) versionOf(key(1, version));
    versionOf(key(1, 1));
    expect(reads).toBe(256);
    versionOf(key(1, 257));
    versionOf(key(1, 1));
    expect(reads).toBe(258);
  });
});
