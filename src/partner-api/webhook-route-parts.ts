import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { EndpointManager } from '../services/webhooks/endpoint-access.js';
import { principalOf } from './authenticate.js';

/** What the partner's webhook routes share: path ids, the success envelope, who is asking. */
export const IdString = Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'A positive integer' });
export const WebhookParams = Type.Object({ webhook_id: IdString });
export const Metadata = Type.Object({ total: Type.Integer(), errors: Type.Literal(0) });
export const Envelope = (results: TSchema) => Type.Object({ metadata: Metadata, results });
export const config = { unexpectedErrorKey: 'webhook.unexpected-error' };

/** The partner's own key manages its endpoints: a key limited to some gyms, only endpoints within them. */
export function manager(request: FastifyRequest): {
  actor: ReturnType<typeof principalOf>['actor'];
  as: EndpointManager;
} {
  const { key, actor } = principalOf(request);
  return { actor, as: { kind: 'partner', partnerId: key.partnerId, gymIds: key.gymIds } };
}

/** /access/v1/webhooks: the partner registers, changes, rotates and removes its webhooks, and reads their log. */
