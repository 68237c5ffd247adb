import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { presentPayoutRules } from '../presenters/plans.js';
import type { RulesOf } from '../services/payout-rule-service.js';
import { actorOfRequest } from './authenticate.js';
import { IdString, operatorErrorResponses } from './schemas.js';

const Tier = Type.Object({
  after_cents: Type.Number({
    description: "Once the partner's paid total of the month is above this",
  }),
  rate_pct: Type.Number({
    description: 'A visit is paid this % (0 to 100, two decimals at most) of its price, half-even',
  }),
});

const Fields = {
  monthly_paid_visits_per_member: Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()], {
    description: "Visits of one member paid per calendar month of the gym's zone; null: no cap",
  }),
  tiers: Type.Array(Tier, { maxItems: 16 }),
};

const Body = Type.Object({
  ...Fields,
  effective_from: Type.Optional(
    Type.String({
      description: 'When the version takes effect (ISO 8601): now when left out, never earlier',
    }),
  ),
});
/** One version of an owner's payout rules. */
export const PayoutRulesVersion = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  ...Fields,
  effective_from: Type.String(),
});
const Versions = Type.Object({ versions: Type.Array(PayoutRulesVersion) });

/** The GET and PUT of one owner's payout rules: a partner's, or a gym's override. */
function ownerRoutes(owner: 'partners' | 'gyms'): RouteGroup {
  const param = owner === 'partners' ? 'partner_id' : 'gym_id';
  const whose = owner === 'partners' ? "a partner's" : "a gym's override of its partner's";
  const Params = Type.Object({ [param]: IdString });
  const of = (params: Record<string, string>): RulesOf =>
    owner === 'partners' ? { partnerId: Number(params[param]) } : { gymId: Number(params[param]) };
  return async (app, { services }) => {
    app.get(
      `/${owner}/:${param}/payout-rules`,
      {
        schema: {
          summary: `The versions of ${whose} payout rules, oldest first`,
          params: Params,
          response: { 200: Versions, ...operatorErrorResponses },
        },
      },
      async (request) => ({
        versions: (await services.payoutRules.versions(of(request.params))).map(presentPayoutRules),
      }),
    );

    app.put(
      `/${owner}/:${param}/payout-rules`,
      {
        schema: {
          summary: `A new version of ${whose} payout rules, from an instant on (now by default, never earlier)`,
          params: Params,
          body: Body,
          response: { 200: PayoutRulesVersion, ...operatorErrorResponses },
        },
      },
      async (request) => {
        const { monthly_paid_visits_per_member: cap, tiers, effective_from: effectiveFrom } = request.body;
        const rules = await services.payoutRules.set(
          of(request.params),
          {
            monthlyPaidVisitsPerMember: cap,
            tiers: tiers.map((tier) => ({ afterCents: tier.after_cents, ratePct: tier.rate_pct })),
            effectiveFrom,
          },
          actorOfRequest(request),
        );
        return presentPayoutRules(rules);
      },
    );
  };
}

/** Payout rules as versioned data (README, "Plans and payout rules"). */
export const payoutRuleRoutes: RouteGroup = async (app, { services }) => {
  await app.register(ownerRoutes('partners'), { services });
  await app.register(ownerRoutes('gyms'), { services });
};
