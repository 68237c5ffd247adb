import { mustExist } from '../domain/must-exist.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { EntityExistsError } from '../domain/errors.js';
import {
  checkedRules,
  effectiveFrom,
  type Plan,
  type RuleInput,
  type PlanVersion,
} from '../domain/plans/plan.js';
import { memberPlanChangedEvent, planChangedEvent } from '../domain/plans/plan-events.js';
import { recordAudit } from '../store/access/audit-repository.js';
import { appendEvents } from '../store/events/event-repository.js';
import { memberWideLockKey } from '../store/changes/member-lock.js';
import {
  insertMemberPlan,
  memberPlanHistory,
  type MemberPlan,
} from '../store/plans/member-plan-repository.js';
import {
  findPlan,
  findPlans,
  insertPlan,
  insertPlanVersion,
  planNamed,
} from '../store/plans/plan-repository.js';
import type { ServiceDependencies } from './dependencies.js';

export interface PlanInput {
  readonly rules: readonly RuleInput[];
  /** ISO 8601; now when left out, never earlier. */
  readonly effectiveFrom?: string | undefined;
}

/** A plan as it answers: its name and the version just made (or, when read, the latest). */
export interface PlanAnswer extends PlanVersion {
  readonly name: string;
}

/**
 * Plans (what a member may use) and members' plans. A plan changes by new versions, each in force from an instant
 * (now by default, never earlier), so no check-in already decided is decided again.
 */
export function createPlanService(
  { store, clock }: ServiceDependencies,
  created: () => void = () => undefined,
) {
  return {
    async create(name: string, input: PlanInput, actor: Actor = OPERATOR): Promise<PlanAnswer> {
      const rules = checkedRules(input.rules);
      const now = clock.now();
      const from = effectiveFrom(input.effectiveFrom, now);
      const answer = await store.write(async (trx) => {
        // Two creations of one name at once: the second finds the first's plan and is told it exists.
        await store.serialize(trx, `plan-name:${name}`);
        if ((await planNamed(trx, name)) !== undefined) throw new EntityExistsError('plan');
        const id = await insertPlan(trx, name, now);
        const version = await insertPlanVersion(trx, id, rules, from, now);
        await recordAudit(trx, { actor, action: 'create', entity: 'plan', entityId: id }, now);
        await appendEvents(trx, [planChangedEvent(name, version, now)]);
        return { ...version, name };
      });
      // Check-in creations here read plans from now on (src/services/fleet-gate.ts).
      created();
      return answer;
    },

    /** A new version of the plan: its rules from `effectiveFrom` on. */
    async version(planId: number, input: PlanInput, actor: Actor = OPERATOR): Promise<PlanAnswer> {
      const rules = checkedRules(input.rules);
      const now = clock.now();
      const from = effectiveFrom(input.effectiveFrom, now);
      return store.write(async (trx) => {
        // Versions are numbered in turn: two at once are the next two, not one number twice.
        await store.serialize(trx, `plan:${planId}`);
        const plan = mustExist(await findPlan(trx, planId), 'plan');
        const version = await insertPlanVersion(trx, planId, rules, from, now);
        await recordAudit(trx, { actor, action: 'update', entity: 'plan', entityId: planId }, now);
        await appendEvents(trx, [planChangedEvent(plan.name, version, now)]);
        return { ...version, name: plan.name };
      });
    },

    list(): Promise<Plan[]> {
      return findPlans(store.db);
    },

    async get(planId: number): Promise<Plan> {
      return mustExist(await findPlan(store.db, planId), 'plan');
    },

    /**
     * The member's plan from `effectiveFrom` on (history kept). Under the member's wide lock: a check-in being
     * decided for the member is decided under one plan or the other, whole.
     */
    async setMemberPlan(
      platformId: string,
      input: { planId: number; effectiveFrom?: string | undefined },
      actor: Actor = OPERATOR,
    ): Promise<MemberPlan> {
      const now = clock.now();
      const from = effectiveFrom(input.effectiveFrom, now);
      return store.write(async (trx) => {
        await store.serialize(trx, memberWideLockKey(platformId));
        mustExist(await findPlan(trx, input.planId), 'plan');
        const set = await insertMemberPlan(
          trx,
          platformId,
          { planId: input.planId, effectiveFrom: from },
          now,
        );
        await recordAudit(trx, { actor, action: 'update', entity: 'member', entityId: platformId }, now);
        await appendEvents(trx, [memberPlanChangedEvent(platformId, set, now)]);
        return set;
      });
    },

    memberPlans(platformId: string): Promise<MemberPlan[]> {
      return memberPlanHistory(store.db, platformId);
    },
  };
}

export type PlanService = ReturnType<typeof createPlanService>;
