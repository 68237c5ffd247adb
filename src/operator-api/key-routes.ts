import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { createRoute, pageRoute, revokeRoute } from './record-routes.js';
import { presentKey } from '../presenters/records.js';
import { ApiKey, Id, IssuedApiKey, OperatorText } from './schemas.js';
import { TEXT_LIMITS } from '../domain/operator-text.js';

/** API keys of a partner: issue (the secret shown once), list without secrets, revoke. */
export const keyRoutes: RouteGroup = async (app, { services }) => {
  const { apiKeys } = services;

  createRoute(app, {
    url: '/partners/:partner_id/keys',
    summary: "Issue an API key for a partner's gyms",
    body: Type.Object({
      label: Type.Optional(Type.Union([OperatorText(TEXT_LIMITS.label), Type.Null()])),
      gym_ids: Type.Optional(Type.Union([Type.Array(Id, { minItems: 1, maxItems: 1000 }), Type.Null()])),
      expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
    created: IssuedApiKey,
    create: async ({ label, gym_ids: gymIds, expires_at: expiresAt }, actor, partnerId) => {
      const issued = await apiKeys.issue(
        partnerId,
        {
          label: label ?? null,
          gymIds: gymIds ?? null,
          expiresAt:
            expiresAt === undefined || expiresAt === null ? null : parseInstant('expires_at', expiresAt),
        },
        actor,
      );
      return { ...presentKey(issued.key), key: issued.secret };
    },
  });

  pageRoute(app, {
    url: '/partners/:partner_id/keys',
    summary: "List a partner's API keys (never their secrets)",
    item: ApiKey,
    list: (page, partnerId) => apiKeys.list(partnerId, page),
    present: presentKey,
    ordered: true,
  });

  revokeRoute(app, {
    url: '/keys/:key_id',
    summary: 'Revoke an API key: refused from its next request on',
    revoke: (id, actor) => apiKeys.revoke(id, actor),
  });
};
