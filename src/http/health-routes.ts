import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ServiceUnavailableError } from '../domain/errors.js';
import type { Metrics } from './metrics.js';
import { requireBearerToken } from './bearer-token.js';
import { errorResponses } from './schemas.js';
import { VERSION } from '../config/version.js';

/** Liveness (`/health`: the process answers) and readiness (`/ready`: the store answers, migrations applied). */
export interface HealthOptions {
  /** Whether the database answers and is migrated (the store's check, handed in by the app). */
  readonly isReady: () => Promise<boolean>;
  readonly metrics: Metrics;
  /** False while the APIs refuse work (migrations pending, shutting down): /ready says so too. */
  readonly isAccepting: () => boolean;
  /** Set: a scrape must present it as a bearer token (GATEHOUSE_METRICS_TOKEN). */
  readonly metricsToken: string | undefined;
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (
  app,
  { isReady, metrics, isAccepting, metricsToken },
) => {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            version: Type.String({ description: 'The running release: tells a fleet mid-upgrade apart' }),
          }),
        },
      },
    },
    () => ({ status: 'ok' as const, version: VERSION }),
  );
  app.get(
    '/ready',
    { schema: { response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) } } },
    async () => {
      if (!isAccepting() || !(await isReady())) throw new ServiceUnavailableError();
      return { status: 'ready' as const };
    },
  );

  app.get(
    '/metrics',
    {
      schema: { summary: 'Prometheus metrics', produces: ['text/plain'] },
      ...(metricsToken === undefined ? {} : { onRequest: requireBearerToken(metricsToken, 'metrics') }),
    },
    async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
};
