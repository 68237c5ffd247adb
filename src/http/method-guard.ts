import type { FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';
import { AppError } from '../domain/errors.js';
import { sendAppError } from './error-mapper.js';

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

/**
 * Known path, wrong method: 405 with `Allow`, in the envelope, answered before authentication. Call
 * `collect` before routes are registered and `register` after them.
 */
export function methodGuard(app: FastifyInstance) {
  const allowed = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config?.methodGuard === true) return;
    const methods = allowed.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    allowed.set(route.url, methods);
  });
  return {
    register(): void {
      for (const [url, methods] of [...allowed]) {
        const others = METHODS.filter((method) => !methods.has(method));
        if (others.length === 0) continue;
        const allow = METHODS.filter((method) => methods.has(method)).join(', ');
        const refuse = (reply: FastifyReply) =>
          sendAppError(
            reply.header('allow', allow),
            new AppError(405, 'route.method-not-allowed', 'method not allowed on this path'),
          );
        app.route({
          method: others,
          url,
          config: { methodGuard: true },
          // Answered in onRequest, before the body is parsed: 405 comes before 415, 413 and 400 body.
          onRequest: async (_request, reply) => refuse(reply),
          handler: async (_request, reply) => refuse(reply),
        });
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    methodGuard?: boolean;
  }
}
