import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { PlanRule } from '../../src/domain/plans/plan.js';
import { insertPlan, insertPlanVersion, memberPlanVersionAt } from '../../src/store/plans/plan-repository.js';
import { memberPlanVersionSql, type PlanVersionRow } from '../../src/store/plans/plan-state.js';
import { platformId } from '../fixtures/factories.js';
import * as op from '../fixtures/operator-api.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

const DAY_MS = 86_400_000;
const rule = (limit: number): PlanRule[] => [{ category: 'standard', per: 'day', limit, scope: 'gym' }];

/** The version read every creation makes, as SQL (the batched writers' text), for `member` at `now`. */
function versionRead(member: string, now: number, defaultPlan: string) {
  return sql.raw(memberPlanVersionSql(`'${member}'`, String(now), `'${defaultPlan}'`));
}

/** The plan of the version read, as the database would run it (SQLite's, or PostgreSQL's without seq scans). */
async function versionPlan(t: TestApp, dialect: string, defaultPlan: string): Promise<string> {
  const statement = versionRead(platformId(), op.T0_MS, defaultPlan);
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ detail: string }>`explain query plan ${statement}`.execute(t.store.db);
    return rows.map((row) => row.detail).join('\n');
  }
  return t.store.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(trx);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
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
    const plan = await versionPlan(t, dialect, name);
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
