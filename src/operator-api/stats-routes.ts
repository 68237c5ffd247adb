import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { formatInstant } from '../domain/time-format.js';
import type { Tally } from '../domain/validation-stats.js';
import { Id, IdString, operatorErrorResponses } from './schemas.js';

const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const TallyFields = {
  count: Type.Integer({ minimum: 0, description: 'Validations' }),
  payouts: Type.Array(Type.Object({ currency: Type.String(), payout_cents: Type.Integer() }), {
    description: 'Their payouts, per currency',
  }),
};

export const ValidationStats = Type.Object({
  from: Instant,
  to: Instant,
  bucket: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  ...TallyFields,
  buckets: Type.Array(Type.Object({ start: Instant, ...TallyFields }), {
    description: 'Every bucket from `from` on, the empty ones too',
  }),
  gyms: Type.Array(Type.Object({ gym_id: Id, ...TallyFields }), {
    description: 'Per gym with at least one validation, by gym id',
  }),
});

const presentTally = (tally: Tally) => ({
  count: tally.count,
  payouts: tally.payouts.map((sum) => ({ currency: sum.currency, payout_cents: sum.payoutCents })),
});

/** GET /admin/v1/stats/validations: counts and payouts over time and per gym, for charts. */
export const statsRoutes: RouteGroup = async (app, { services }) => {
  app.get(
    '/stats/validations',
    {
      schema: {
        summary: 'Validations and payouts per hour or day, and per gym, for a period',
        querystring: Type.Object({
          from: Type.String({
            description: 'inclusive; ISO-8601, UTC by default; the first bucket starts here',
          }),
          to: Type.String({ description: 'exclusive' }),
          bucket: Type.Optional(
            Type.Union([Type.Literal('hour'), Type.Literal('day')], { description: 'default hour' }),
          ),
          partner_id: Type.Optional(IdString),
          gym_id: Type.Optional(IdString),
        }),
        response: { 200: ValidationStats, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { query } = request;
      const stats = await services.stats.validations({
        from: parseInstant('from', query.from),
        to: parseInstant('to', query.to),
        bucket: query.bucket ?? 'hour',
        ...(query.partner_id === undefined ? {} : { partnerId: Number(query.partner_id) }),
        ...(query.gym_id === undefined ? {} : { gymId: Number(query.gym_id) }),
      });
      return {
        from: formatInstant(stats.from),
        to: formatInstant(stats.to),
        bucket: stats.bucket,
        ...presentTally(stats),
        buckets: stats.buckets.map((bucket) => ({
          start: formatInstant(bucket.start),
          ...presentTally(bucket),
        })),
        gyms: stats.gyms.map((gym) => ({ gym_id: gym.gymId, ...presentTally(gym) })),
      };
    },
  );
};
