import { beforeAll, describe, expect, it } from 'vitest';
import { DENY_MESSAGE } from '../fixtures/partner-api.js';
import { useApp, type TestApp } from '../fixtures/test-app.js';

/** What the OpenAPI document must say of the partner API: its statuses, auth and the explicit-deny 403 body. */

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
};
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

let t: TestApp;
let doc: Document;
const shared = useApp({});
beforeAll(async () => {
  t = shared();
  doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body) as Document;
});

const CODE = '/access/v1/code/{platform_id}';
/** Each endpoint's documented statuses; GET code and transactions are gatehouse's additions. */
const SPEC_STATUSES: [string, string, string[]][] = [
  ['post', '/access/v1/validate', ['200', '400', '403', '404']],
  ['post', CODE, ['201', '400', '403', '409', '500']],
  ['put', CODE, ['200', '400', '403', '404', '500']],
  ['delete', CODE, ['204', '400', '403', '404', '500']],
  ['get', CODE, ['200', '403', '404']],
  ['get', '/access/v1/transactions', ['200', '400', '403']],
];
const PARTNER_OPERATIONS = SPEC_STATUSES.map(([method, path]) => [method, path] as const);

function jsonSchema(method: string, path: string, status: string): Schema | undefined {
  return doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
}

describe('the OpenAPI document of the partner API', () => {
  it.each(SPEC_STATUSES)(
    'when %s %s is read, then it declares the documented statuses %j',
    (method, path, statuses) => {
      const declared = Object.keys(doc.paths[path]?.[method]?.responses ?? {});
      expect(declared).toEqual(expect.arrayContaining(statuses));
    },
  );

  it('when the security schemes are read, then the partner key and the operator token are bearer schemes', () => {
    expect(doc.components.securitySchemes).toEqual({
      partnerKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }) as unknown,
      operatorToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }) as unknown,
    });
  });

  it('when an operation is read, then it requires the scheme of its API, and health needs none', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const label = `${method} ${path}`;
        const required = op.security ?? null;
        // The sandbox helper (/helper/v1) takes a partner's key too.
        if (path.startsWith('/access/v1/') || path.startsWith('/helper/v1/'))
          expect(required, label).toEqual([{ partnerKey: [] }]);
        else if (path.startsWith('/admin/v1/')) expect(required, label).toEqual([{ operatorToken: [] }]);
        else expect(required, label).toBeNull();
      }
    }
  });

  it.each(PARTNER_OPERATIONS)(
    'when %s %s answers 403, then the body has Message and no key',
    (method, path) => {
      const schema = jsonSchema(method, path, '403');
      const item = schema?.properties?.errors?.items;
      expect(item?.properties).toEqual({ Message: { type: 'string' } });
      expect(item?.required).toEqual(['Message']);
      expect(schema?.properties?.Message).toEqual({ type: 'string' });
      expect(schema?.required).toEqual(expect.arrayContaining(['metadata', 'errors', 'Message']));
    },
  );

  it.each(PARTNER_OPERATIONS)(
    'when %s %s answers 401, then the body is {"message":"Unauthorized"}',
    (method, path) => {
      const schema = jsonSchema(method, path, '401');
      expect(schema?.properties?.message).toEqual({ type: 'string', enum: ['Unauthorized'] });
    },
  );

  it.each(PARTNER_OPERATIONS)(
    'when %s %s answers 400, then the body is the envelope with message and key',
    (method, path) => {
      const item = jsonSchema(method, path, '400')?.properties?.errors?.items;
      expect(item?.properties).toEqual({ message: { type: 'string' }, key: { type: 'string' } });
      expect(item?.required).toEqual(['message', 'key']);
    },
  );

  it('when the 403 described is compared with a real one, then the real body fits it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/access/v1/validate',
      headers: { authorization: 'Bearer not-a-key', 'x-gym-id': '1', 'content-type': 'application/json' },
      payload: '{"platform_id":"1234567890123"}',
    });
    expect(response.statusCode).toBe(403);
    const body = JSON.parse(response.body) as { errors: Record<string, unknown>[]; Message: string };
    expect(Object.keys(body.errors[0] ?? {})).toEqual(['Message']);
    expect(body.Message).toBe(DENY_MESSAGE);
  });
});
