import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { withExample, withParameterExamples, withResponseExamples } from './openapi-examples.js';
import { VERSION } from '../config/version.js';

/** Which part of the API a path belongs to: its tag and how it authenticates. */
function classify(url: string): { tags: string[]; security?: Record<string, string[]>[] } {
  if (url.startsWith('/access/v1') || url.startsWith('/helper/v1')) {
    return { tags: ['partner'], security: [{ partnerKey: [] }] };
  }
  if (url.startsWith('/admin/v1')) return { tags: ['operator'], security: [{ operatorToken: [] }] };
  return { tags: ['operations'] };
}

/**
 * The plugin's CSP blocks the one inline style Swagger UI's bundle applies, and the page logs an error for it:
 * that style alone is allowed, by its hash (test/processes/docs/docs-page.test.ts opens the page in Chromium).
 */
const SWAGGER_UI_STYLE_SRC =
  "style-src 'self' https: 'unsafe-hashes' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * gatehouse serves plain http (TLS, if any, ends at a proxy in front of it). Over plain http, this directive makes
 * the browser fetch the page's own scripts and styles over https, where nothing answers: /docs stayed blank on any
 * host name but loopback, which Chromium exempts (test/processes/docs/docs-page.test.ts opens both).
 */
const UPGRADE_INSECURE_REQUESTS = /\s*upgrade-insecure-requests;?/;

/**
 * The OpenAPI 3.1 document, generated from the route schemas (the one contract), served at /openapi.json and
 * rendered at /docs by Swagger UI from the package's own assets (nothing from a CDN). Register before any route.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'gatehouse',
          version: VERSION,
          description:
            'Access control for gym networks. The partner API (`/access/v1`) follows the access-control ' +
            'specification to the letter; the operator API (`/admin/v1`) runs the platform behind it.',
        },
        tags: [
          {
            name: 'partner',
            description:
              'Validate check-ins and manage custom codes (API key + X-Gym-Id). A missing bearer token is a 401 ' +
              '`{"message":"Unauthorized"}`; any key that may not act on the gym — unknown, revoked, expired, or ' +
              "another partner's — gets the same 403, whose error object has a capitalised `Message` and no key, " +
              'repeated at the top level, as clients written for the production gateway read it.',
          },
          { name: 'operator', description: 'Partners, gyms, products, keys, check-ins and the ledger' },
          { name: 'operations', description: 'Health, readiness and metrics' },
        ],
        components: {
          securitySchemes: {
            partnerKey: { type: 'http', scheme: 'bearer', description: 'The API key issued to the partner' },
            operatorToken: {
              type: 'http',
              scheme: 'bearer',
              description:
                "GATEHOUSE_ADMIN_TOKEN, or an operator's token (gho_…): its role decides what it may call",
            },
          },
        },
      },
      hideUntagged: true,
      transform: ({ schema, url, route }) => {
        if (route.config?.methodGuard === true || url === '/openapi.json' || url.startsWith('/docs')) {
          return { schema: { ...schema, hide: true }, url };
        }
        const examples = Object.fromEntries(
          (['params', 'querystring', 'headers'] as const)
            .filter((part) => schema[part] !== undefined)
            .map((part) => [part, withParameterExamples(schema[part])]),
        );
        const body = withExample(route.method, url, schema.body);
        const response = withResponseExamples(route.method, url, schema.response);
        return {
          schema: {
            ...schema,
            ...examples,
            ...(body === undefined ? {} : { body }),
            ...(response === undefined ? {} : { response }),
            ...classify(url),
          },
          url,
        };
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
      staticCSP: true,
      transformStaticCSP: (header) =>
        header
          .replace("style-src 'self' https:", SWAGGER_UI_STYLE_SRC)
          .replace(UPGRADE_INSECURE_REQUESTS, ''),
    });
    app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'openapi', dependencies: ['error-mapper'] },
);
