import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { loggableUrl, requestLineLogger } from './logging.js';
import type { Metrics } from './metrics.js';

/** A refused key's reason and prefix (when the token had the shape of a key): the operator can tell why. */
function refusalFields(refusal: FastifyReply['refusal'] | undefined): Record<string, string> {
  if (refusal === null || refusal === undefined) return {};
  return {
    ...(refusal.reason === undefined ? {} : { refusal: refusal.reason }),
    ...(refusal.keyPrefix === undefined ? {} : { key_prefix: refusal.keyPrefix }),
  };
}

function logRequest(
  log: FastifyBaseLogger,
  request: FastifyRequest,
  result: { status?: number; outcome: string; refusal?: FastifyReply['refusal'] },
  elapsedMs?: number,
): void {
  const partner = request.partner;
  log.info(
    {
      // As Fastify's own request logger binds it.
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      // A route whose path names a person (an erasure) logs its pattern, never the URL.
      url:
        request.routeOptions.config.logRouteOnly === true
          ? (request.routeOptions.url ?? 'unmatched')
          : loggableUrl(request.url),
      ...(result.status === undefined ? {} : { status: result.status }),
      outcome: result.outcome,
      ...(partner === null || partner === undefined
        ? {}
        : { partner_id: partner.key.partnerId, gym_id: partner.gymId, key_prefix: partner.key.prefix }),
      ...refusalFields(result.refusal),
      ...(elapsedMs === undefined ? {} : { duration_ms: Math.round(elapsedMs * 1000) / 1000 }),
    },
    'request',
  );
}

/**
 * One JSON log line per request (request id, route, status, partner, gym, key prefix, outcome key, duration) and
 * the HTTP metrics, both written when the response is done. Headers and bodies are never logged.
 */
export const observabilityPlugin = fp(
  (app: FastifyInstance, { metrics }: { metrics: Metrics }) => {
    const log = requestLineLogger(app.log);
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = String(reply.statusCode);
      const seconds = reply.elapsedTime / 1000;
      metrics.requests.inc({ route, method: request.method, status });
      metrics.requestDuration.observe({ route, method: request.method, status }, seconds);
      logRequest(
        log,
        request,
        { status: reply.statusCode, outcome: reply.outcome ?? 'ok', refusal: reply.refusal },
        reply.elapsedTime,
      );
      done();
    });
    // A client that closes its connection before the answer (an aborted upload) gets no onResponse: one line still.
    app.addHook('onRequestAbort', (request, done) => {
      logRequest(log, request, { outcome: 'request.aborted' });
      done();
    });
    return Promise.resolve();
  },
  { name: 'observability', dependencies: ['error-mapper'] },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request's log line shows the route's pattern, not the URL (the path names a person). */
    logRouteOnly?: boolean;
  }
}
