import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, test } from 'vitest';
import { useApp, type TestApp } from '../fixtures/test-app.js';

interface MediaType {
  schema?: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Parameter {
  name: string;
  in: string;
  schema?: Record<string, unknown>;
  example?: unknown;
}
interface Document {
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, MediaType> };
        responses?: Record<string, { content?: Record<string, MediaType> }>;
      }
    >
  >;
}

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

let t: TestApp;
let doc: Document;
const shared = useApp({});
beforeAll(async () => {
  t = shared();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Document>();
});

describe('the API reference at /docs shows real values', () => {
  test("when the OpenAPI document is read, then its version is the package's", () => {
    expect(doc.info.version).toBe(version);
  });

  test('when an operation takes a JSON body, then the docs offer a real example of it that its schema accepts', () => {
    const bodies = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const media = operation.requestBody?.content?.['application/json'];
        return media === undefined ? [] : [{ operation: `${method.toUpperCase()} ${path}`, media }];
      }),
    );
    expect(bodies.length).toBeGreaterThanOrEqual(8);
    const ajv = new Ajv({ strict: false });

    const findings = bodies.map(({ operation, media }) => {
      // One example is the media type's `example`; several would be its named `examples`.
      const examples = [
        ...(media.example === undefined ? [] : [media.example]),
        ...Object.values(media.examples ?? {}).map((example) => example.value),
      ];
      const validate = ajv.compile(media.schema ?? {});
      return { operation, examples: examples.length, valid: examples.every((example) => validate(example)) };
    });

    expect(findings).toEqual(findings.map(({ operation }) => ({ operation, examples: 1, valid: true })));
  });

  test('when an operation takes path, query or header parameters, then each has a real example its schema accepts', () => {
    const ajv = new Ajv({ strict: false });
    const parameters = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        (operation.parameters ?? []).map((parameter) => ({
          where: `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}`,
          parameter,
        })),
      ),
    );
    expect(parameters.length).toBeGreaterThan(20);

    const findings = parameters.map(({ where, parameter }) => ({
      where,
      example: parameter.example !== undefined,
      valid: ajv.compile(parameter.schema ?? {})(parameter.example),
    }));

    expect(findings).toEqual(findings.map(({ where }) => ({ where, example: true, valid: true })));
  });

  test('when an operation answers with a JSON body, then each documented answer has a real example its schema accepts', () => {
    const ajv = new Ajv({ strict: false });
    const answers = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        Object.entries(operation.responses ?? {}).flatMap(([status, response]) => {
          const media = response.content?.['application/json'];
          return media === undefined ? [] : [{ where: `${method.toUpperCase()} ${path} ${status}`, media }];
        }),
      ),
    );
    expect(answers.length).toBeGreaterThan(200);

    const findings = answers.map(({ where, media }) => {
      // One example is the media type's `example`; an answer with several (a route's 404s, 409s) names them.
      const examples = [
        ...(media.example === undefined ? [] : [media.example]),
        ...Object.values(media.examples ?? {}).map((example) => example.value),
      ];
      const validate = ajv.compile(media.schema ?? {});
      return { where, example: examples.length > 0, valid: examples.every((example) => validate(example)) };
    });

    expect(findings).toEqual(findings.map(({ where }) => ({ where, example: true, valid: true })));
  });
});
