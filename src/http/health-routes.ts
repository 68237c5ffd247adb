import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ServiceUnavailableError } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import type { Metrics } from './metrics.js';
import { requireBearerToken } from './bearer-token.js';
import { errorResponses } from './schemas.js';

/** Liveness (`/health`: the process answers) and readiness (`/ready`: the store answers, migrations applied). */
export interface HealthOptions {
  readonly store: Store;
  readonly metrics: Metrics;
  /** False while the APIs refuse work (migrations pending, shutting down): /ready says so too. */
  readonly isAccepting: () => boolean;
  /** Set: a scrape must present it as a bearer token (GATEHOUSE_METRICS_TOKEN). */
  readonly metricsToken: string | undefined;
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (
  app,
  { store, metrics, isAccepting, metricsToken },
) => {
  app.get('/health', { schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/ready',
    { schema: { response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) } } },
    async () => {
      if (!isAccepting() || !(await store.isReady())) throw new ServiceUnavailableError();
      return { status: 'ready' as const };
    },
  );

  app.get(
    '/metrics',
    {
      schema: { summary: 'Prometheus metrics', produces: ['text/plain'] },
      ...(metricsToken === undefined
        ? {}
        : { onRequest: requireBearerToken(metricsToken, 'invalid metrics token') }),
    },
    async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
};
