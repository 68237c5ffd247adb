import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/test-app.js';
import { ADMIN_TOKEN } from '../fixtures/operator-api.js';

interface Envelope {
  errors: { key: string; message: string }[];
}
interface Answer {
  content?: Record<string, { example?: Envelope; examples?: Record<string, { value: Envelope }> }>;
}
interface Parameter {
  name: string;
  in: string;
}
interface Document {
  paths: Record<string, Record<string, { parameters?: Parameter[]; responses: Record<string, Answer> }>>;
}

let doc: Document;
const app = useApp({});
beforeAll(async () => {
  doc = JSON.parse((await app().app.inject({ method: 'GET', url: '/openapi.json' })).body) as Document;
});

/** Every operator operation as `METHOD path`, with its answers. */
function operatorOperations(): [string, Record<string, Answer>][] {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/admin/v1/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) =>
          [`${method.toUpperCase()} ${path}`, operation.responses] as [string, Record<string, Answer>],
      ),
    );
}

/** An answer's examples (one is the media type's `example`, several its named `examples`). */
function examplesOf(answer: Answer | undefined): Envelope[] {
  const media = answer?.content?.['application/json'];
  if (media?.example !== undefined) return [media.example];
  return Object.values(media?.examples ?? {}).map((e) => e.value);
}

/** The error keys of an answer's examples. */
const keysOf = (answer: Answer | undefined): string[] =>
  examplesOf(answer).flatMap((example) => example.errors.map((error) => error.key));

describe('the OpenAPI document of the operator API: each route lists the errors it can answer', () => {
  it('when the 409s are read, then only the routes with a conflict list one, each with its own', () => {
    const conflicts = Object.fromEntries(
      operatorOperations()
        .filter(([, responses]) => responses['409'] !== undefined)
        .map(([route, responses]) => [route, keysOf(responses['409'])]),
    );

    expect(conflicts).toEqual({
      'POST /admin/v1/gyms': ['gym.already-exists'],
      'POST /admin/v1/gyms/{gym_id}/products': ['product.already-exists'],
      'POST /admin/v1/checkins': [
        'gym.retired',
        'product.retired',
        'checkin.daily-limit',
        'checkin.plan.not-included',
        'checkin.plan.limit-reached',
      ],
      'POST /admin/v1/checkins/{checkin_id}/cancel': ['checkin.already.validated'],
      'POST /admin/v1/transactions/{transaction_id}/reversals': ['transaction.over-reversed'],
      'POST /admin/v1/settlements': ['settlement.overlap'],
      'POST /admin/v1/settlements/{settlement_id}/paid': ['settlement.already-paid'],
      'POST /admin/v1/partners/{partner_id}/webhooks': ['webhook.limit'],
      'POST /admin/v1/operators': ['operator.already-exists'],
      'PATCH /admin/v1/operators/{operator_id}': ['operator.revoked', 'operator.self'],
    });
  });

  it('when the 404s are read, then a route lists one only for the records its path or body names', () => {
    const missing = Object.fromEntries(
      operatorOperations()
        .filter(([, responses]) => responses['404'] !== undefined)
        .map(([route, responses]) => [route, keysOf(responses['404'])]),
    );

    expect(missing).toMatchObject({
      'POST /admin/v1/gyms': ['partner.not-found'],
      'POST /admin/v1/checkins': ['gym.not-found', 'product.not-found'],
      'GET /admin/v1/webhooks/{webhook_id}/deliveries': ['webhook.not-found'],
      'POST /admin/v1/deliveries/{delivery_id}/retry': ['delivery.not-found'],
      'GET /admin/v1/custom-codes': ['checkin.custom-code.not-found'],
      'DELETE /admin/v1/keys/{key_id}': ['key.not-found'],
    });
    for (const route of [
      'GET /admin/v1/partners',
      'GET /admin/v1/me',
      'POST /admin/v1/members/{platform_id}/erase',
    ]) {
      expect(missing[route], route).toBeUndefined();
    }
    // Every 404 listed comes with an example of its own.
    for (const [route, keys] of Object.entries(missing)) {
      expect(keys.length, route).toBeGreaterThan(0);
    }
  });

  it('when the 429s are read, then every operator route lists the one of an address past its sign-in budget', () => {
    const operations = operatorOperations();
    const tooMany = operations.map(([route, responses]) => [route, examplesOf(responses['429'])]);

    expect(operations.length).toBeGreaterThan(40);
    expect(tooMany).toEqual(
      operations.map(([route]) => [
        route,
        [
          {
            metadata: { total: 0, errors: 1 },
            errors: [{ message: 'too many requests', key: 'rate.limited' }],
          },
        ],
      ]),
    );
  });

  it('when a route takes no input, then it lists no 400, 413 or 415; a body route lists them; none lists 405', () => {
    const statuses = Object.fromEntries(
      operatorOperations().map(([route, responses]) => [route, Object.keys(responses).sort()]),
    );

    expect(statuses['GET /admin/v1/me']).toEqual(['200', '401', '403', '429', '500', '503']);
    expect(statuses['DELETE /admin/v1/keys/{key_id}']).toEqual([
      '204',
      '400',
      '401',
      '403',
      '404',
      '413',
      '429',
      '500',
      '503',
    ]);
    expect(statuses['POST /admin/v1/gyms']).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(Object.entries(statuses).filter(([, listed]) => listed.includes('405'))).toEqual([]);
  });
});

describe("the OpenAPI document of the operator API: each route's 400 is its own", () => {
  const HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const operatorApp = useApp({ env: { GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN } });

  /** The request that makes the mistake a 400 example names: that field wrong, every other one well formed. */
  function mistake(
    method: string,
    path: string,
    { key, message }: { key: string; message: string },
    parameters: Parameter[],
  ) {
    const inPath = parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const url = path.replace(/\{([a-z_]+)\}/g, (_whole, name: string) => (name === key ? 'x' : '1'));
    const queries = parameters.filter((p) => p.in === 'query').map((p) => p.name);
    if (inPath.includes(key)) return { method, url };
    if (key === 'body') return { method, url, payload: '{', headers: { 'content-type': 'application/json' } };
    if (['POST', 'PUT', 'PATCH'].includes(method))
      return { method, url, payload: '{}', headers: { 'content-type': 'application/json' } };
    const bad: Record<string, string> = { limit: '0', from: 'x' };
    // A required parameter is left out (platform_id's message is the same either way).
    const leftOut = message === 'is required' || key === 'platform_id';
    const query = queries.includes(key) && !leftOut ? `?${key}=${bad[key] ?? 'x'}` : '';
    return { method, url: `${url}${query}` };
  }

  it('when each route is sent the mistake its 400 example names, then it answers exactly that example; every route that takes input has one', async () => {
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/admin/v1/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          operation,
        })),
      );
    expect(operations.length).toBeGreaterThan(40);

    const findings = [];
    for (const { method, path, operation } of operations) {
      const parameters = operation.parameters ?? [];
      const takesInput = parameters.length > 0 || ['POST', 'PUT', 'PATCH'].includes(method);
      const example = operation.responses['400']?.content?.['application/json']?.example;
      if (example === undefined) {
        findings.push({ route: `${method} ${path}`, takesInput, documented: undefined, answered: undefined });
        continue;
      }
      const [error = { key: '', message: '' }] = example.errors;
      const request = mistake(method, path, error, parameters);
      const response = await operatorApp().app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: { ...HEADERS, ...request.headers },
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      });
      findings.push({
        route: `${method} ${path}`,
        takesInput,
        documented: example,
        answered: response.statusCode === 400 ? (JSON.parse(response.body) as unknown) : response.statusCode,
      });
    }

    expect(findings).toEqual(
      findings.map(({ route, documented }) => ({
        route,
        takesInput: documented !== undefined,
        documented,
        answered: documented,
      })),
    );
  });
});

describe("the OpenAPI document of the operator API: each route's 404 for its path is its own", () => {
  const operatorApp = useApp({ env: { GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN } });

  it('when a route is asked for records that do not exist (with an empty body where it takes one), then it answers the first 404 its document lists', async () => {
    const findings = [];
    for (const [route, responses] of operatorOperations()) {
      const [method = '', path = ''] = route.split(' ');
      const [first] = examplesOf(responses['404']);
      if (!path.includes('{') || first === undefined) continue;
      const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
      const response = await operatorApp().app.inject({
        method: method as 'GET',
        url: path.replace(/\{[a-z_]+\}/g, '999999999999'),
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(withBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(withBody ? { payload: '{}' } : {}),
      });
      // A body a route requires is checked before the record is looked for: those routes' 404s come after.
      if (response.statusCode === 400) continue;
      findings.push({ route, answered: JSON.parse(response.body) as unknown, documented: first });
    }

    expect(findings.length).toBeGreaterThan(20);
    expect(findings).toEqual(
      findings.map(({ route, documented }) => ({ route, answered: documented, documented })),
    );
  });
});
