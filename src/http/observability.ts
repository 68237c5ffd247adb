import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from './metrics.js';

/**
 * One JSON log line per request (request id, route, status, partner, gym, key prefix, outcome key, duration) and
 * the HTTP metrics, both written when the response is done. Headers and bodies are never logged.
 */
export const observabilityPlugin = fp(
  (app: FastifyInstance, { metrics }: { metrics: Metrics }) => {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = String(reply.statusCode);
      const seconds = reply.elapsedTime / 1000;
      metrics.requests.inc({ route, method: request.method, status });
      metrics.requestDuration.observe({ route, method: request.method, status }, seconds);
      const partner = request.partner;
      request.log.info(
        {
          method: request.method,
          route,
          url: request.url,
          status: reply.statusCode,
          outcome: reply.outcome ?? 'ok',
          ...(partner === null || partner === undefined
            ? {}
            : { partner_id: partner.key.partnerId, gym_id: partner.gymId, key_prefix: partner.key.prefix }),
          duration_ms: Math.round(reply.elapsedTime * 1000) / 1000,
        },
        'request',
      );
      done();
    });
    return Promise.resolve();
  },
  { name: 'observability', dependencies: ['error-mapper'] },
);
