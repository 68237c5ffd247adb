import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { presentMemberPlan, presentPlan, presentPlanVersion } from '../presenters/plans.js';
import { actorOfRequest } from './authenticate.js';
import { createRoute } from './record-routes.js';
import {
  MemberPlan,
  MemberPlanBody,
  MemberPlans,
  Plan,
  PlanBody,
  PlanVersionBody,
  PlanWithVersions,
} from './plan-wire.js';
import { IdString, ListOf, PlatformId, operatorErrorResponses } from './schemas.js';

const PlanParams = Type.Object({ plan_id: IdString });
const MemberParams = Type.Object({ platform_id: PlatformId });

/** Plans as versioned data, and members' plans (README, "Plans and payout rules"). */
export const planRoutes: RouteGroup = async (app, { services }) => {
  createRoute(app, {
    url: '/plans',
    summary: 'Create a plan: its rules are its version 1',
    body: PlanBody,
    created: Plan,
    create: async ({ name, rules, effective_from: effectiveFrom }, actor) => {
      const plan = await services.plans.create(name, { rules, effectiveFrom }, actor);
      return presentPlanVersion(plan.name, plan);
    },
  });

  app.get(
    '/plans',
    {
      schema: {
        summary: 'Every plan, at its latest version, with its versions',
        response: { 200: ListOf(PlanWithVersions), ...operatorErrorResponses },
      },
    },
    async () => ({ items: (await services.plans.list()).map(presentPlan), next_cursor: null }),
  );

  app.get(
    '/plans/:plan_id',
    {
      schema: {
        summary: 'A plan, at its latest version, with its versions',
        params: PlanParams,
        response: { 200: PlanWithVersions, ...operatorErrorResponses },
      },
    },
    async (request) => presentPlan(await services.plans.get(Number(request.params.plan_id))),
  );

  app.put(
    '/plans/:plan_id',
    {
      schema: {
        summary: "A new version of a plan's rules, from an instant on (now by default, never earlier)",
        params: PlanParams,
        body: PlanVersionBody,
        response: { 200: Plan, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { rules, effective_from: effectiveFrom } = request.body;
      const id = Number(request.params.plan_id);
      const plan = await services.plans.version(id, { rules, effectiveFrom }, actorOfRequest(request));
      return presentPlanVersion(plan.name, plan);
    },
  );

  app.put(
    '/members/:platform_id/plan',
    {
      config: { logRouteOnly: true },
      schema: {
        summary: "Set a member's plan, from an instant on (now by default, never earlier); history is kept",
        params: MemberParams,
        body: MemberPlanBody,
        response: { 200: MemberPlan, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { platform_id: platformId } = request.params;
      const { plan_id: planId, effective_from: effectiveFrom } = request.body;
      const set = await services.plans.setMemberPlan(
        platformId,
        { planId, effectiveFrom },
        actorOfRequest(request),
      );
      return presentMemberPlan(platformId, set);
    },
  );

  app.get(
    '/members/:platform_id/plan',
    {
      config: { logRouteOnly: true },
      schema: {
        summary: "A member's plans, in the order they were set",
        params: MemberParams,
        response: { 200: MemberPlans, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { platform_id: platformId } = request.params;
      const plans = await services.plans.memberPlans(platformId);
      return {
        platform_id: platformId,
        plans: plans.map((plan) => {
          const { plan_id, effective_from, set_at } = presentMemberPlan(platformId, plan);
          return { plan_id, effective_from, set_at };
        }),
      };
    },
  );
};
