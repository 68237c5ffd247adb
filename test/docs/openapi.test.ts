import { Validator } from '@seriousme/openapi-schema-validator';
import type * as FastifyModule from 'fastify';
import type { RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useApp, type TestApp } from '../fixtures/test-app.js';

/*
 * The route table is read from the app itself: every Fastify instance buildApp creates gets an onRoute hook
 * first, so each route is seen as registered, schema and config included. The document is generated from the
 * same schemas; these tests fail when the two drift apart. The route table does not depend on the database, so
 * one SQLite app serves.
 */
const registered = vi.hoisted(() => [] as RouteOptions[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof FastifyModule>();
  const withRouteLog = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => void registered.push(route));
    return app;
  }) as typeof actual.default;
  return { ...actual, default: withRouteLog };
});

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
  security?: Record<string, string[]>[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

let t: TestApp;
let doc: Document;
const shared = useApp({});
beforeAll(async () => {
  t = shared();
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  doc = JSON.parse(response.body) as Document;
});

/** The routes a client can call: not the HEAD twins, the 405 guards, the docs page's own files or the doc. */
function documentedRoutes(): { method: string; url: string; statuses: string[] }[] {
  return registered.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .filter(() => route.config?.methodGuard !== true)
      // Pages, not API: the docs, the document itself, and the console (with / that leads to it).
      .filter(() => !['/', '/openapi.json'].includes(route.url) && !/^\/(docs|console)(\/|$)/.test(route.url))
      .map((method) => ({
        method: method.toLowerCase(),
        url: route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
        statuses: Object.keys((route.schema?.response as Record<string, unknown> | undefined) ?? {}),
      })),
  );
}

function operation(method: string, path: string): Operation | undefined {
  return doc.paths[path]?.[method];
}

describe('GET /openapi.json', () => {
  it('when fetched, then it is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('when the app registers its routes, then every one of them is in the document', () => {
    const routes = documentedRoutes();
    // The enumeration itself must see the routes, or the checks below prove nothing.
    expect(routes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'post /access/v1/validate',
        'post /access/v1/code/{platform_id}',
        'put /access/v1/code/{platform_id}',
        'delete /access/v1/code/{platform_id}',
        'get /access/v1/code/{platform_id}',
        'get /access/v1/transactions',
        'post /admin/v1/checkins',
        'get /health',
        'get /ready',
        'get /metrics',
      ]),
    );
    const missing = routes.filter((route) => operation(route.method, route.url) === undefined);
    expect(missing).toEqual([]);
  });

  it('when a route schema declares a response status, then the document declares it for that operation', () => {
    const missing = documentedRoutes().flatMap((route) =>
      route.statuses
        .filter((status) => operation(route.method, route.url)?.responses?.[status] === undefined)
        .map((status) => `${route.method} ${route.url} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('when a client reads it, then it lists nothing but the API (no guards, no docs files)', () => {
    const listed = Object.keys(doc.paths);
    const expected = new Set(documentedRoutes().map((route) => route.url));
    expect(listed.filter((path) => !expected.has(path))).toEqual([]);
  });
});
