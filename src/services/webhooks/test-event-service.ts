import {
  TEST_EVENT_TYPE,
  TEST_HEADER,
  newTestEventId,
  type TestOutcome,
  standardTestBody,
  wellhubTestBody,
} from '../../domain/webhooks/test-event.js';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import { WELLHUB_SIGNATURE_HEADER, wellhubSignature } from '../../domain/webhooks/wellhub-format.js';
import { listGymProducts, listGyms } from '../../store/catalog/catalog-repository.js';
import type { ServiceDependencies } from '../dependencies.js';
import { OPERATOR_MANAGER, type EndpointManager } from './endpoint-access.js';
import type { EndpointService } from './endpoint-service.js';
import { systemResolver } from './resolver.js';
import { createSender } from './sender.js';

/** How much of the receiver's answer a test shows. */
export const EXCERPT_BYTES = 512;

/**
 * Test events: one signed attempt, now, to an endpoint the caller may manage, whatever its status (a disabled
 * endpoint can be tested before it is enabled again). Nothing is written: a test is not an event of the log, and
 * neither the delivery log nor the endpoint's health counts it (README, "Test events").
 */
export function createTestEventService(deps: ServiceDependencies, endpoints: EndpointService) {
  const { store, clock, config } = deps;

  async function request(endpoint: WebhookEndpoint, now: number) {
    const secrets = await endpoints.signingSecrets(endpoint.id);
    if (endpoint.format === 'standard') {
      const id = newTestEventId();
      const body = standardTestBody(endpoint, now);
      return { id, body, headers: signedHeaders(secrets, id, Math.floor(now / 1000), body) };
    }
    const gyms = await listGyms(store.db, { partnerId: endpoint.partnerId }, { afterId: 0, limit: 1000 });
    const gym = gyms.find((candidate) => endpoint.gymIds?.includes(candidate.id) ?? true);
    const [product] = gym === undefined ? [] : await listGymProducts(store.db, gym.id);
    const body = wellhubTestBody(
      { id: gym?.id ?? 0, name: gym?.name ?? 'Test gym' },
      { id: product?.id ?? 0, description: product?.description ?? 'Test product' },
      now,
    );
    const [secret = ''] = secrets;
    return { id: null, body, headers: { [WELLHUB_SIGNATURE_HEADER]: wellhubSignature(secret, body) } };
  }

  return {
    async send(endpointId: number, manager: EndpointManager = OPERATOR_MANAGER): Promise<TestOutcome> {
      const endpoint = await endpoints.get(endpointId, manager);
      const test = await request(endpoint, clock.now());
      const sender = createSender(deps.resolver ?? systemResolver, config.webhookAllowPrivate);
      const started = performance.now();
      try {
        const result = await sender.send({
          url: endpoint.url,
          headers: { ...test.headers, [TEST_HEADER]: 'true' },
          body: test.body,
          timeoutMs: endpoint.timeoutMs,
          signal: new AbortController().signal,
          excerptBytes: EXCERPT_BYTES,
        });
        const answered = result.kind === 'answer';
        return {
          endpoint,
          eventId: test.id,
          eventType: endpoint.format === 'standard' ? TEST_EVENT_TYPE : 'checkin',
          delivered: answered && result.statusCode >= 200 && result.statusCode < 300,
          statusCode: answered ? result.statusCode : null,
          error: answered ? null : result.error,
          durationMs: Math.round(performance.now() - started),
          excerpt: answered ? (result.excerpt ?? '') : null,
        };
      } finally {
        sender.close();
      }
    },
  };
}

export type TestEventService = ReturnType<typeof createTestEventService>;
