import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/*
 * Building an app compiles every route's request and response schemas (Ajv, fast-json-stringify): most of the
 * 150 ms a test app takes to start. The suite builds hundreds of identical apps per worker, so these compilers,
 * Fastify's own underneath, compile each schema once per worker process and hand the same function to every app.
 * The key is the schema's JSON with everything else the compiled function depends on: equal keys, equal code.
 */
interface RouteSchema {
  readonly schema?: unknown;
  readonly httpPart?: string;
  readonly httpStatus?: string;
  readonly contentType?: string;
}
type Compile = (route: RouteSchema) => unknown;
type Factory = (externalSchemas: unknown, options: unknown) => Compile;

const compiled = new Map<string, unknown>();

function memoised(kind: string, factory: Factory): Factory {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = JSON.stringify([kind, externalSchemas, options]);
    return (route) => {
      const key = `${context}${JSON.stringify([route.schema, route.httpPart, route.httpStatus, route.contentType])}`;
      if (!compiled.has(key)) compiled.set(key, compile(route));
      return compiled.get(key);
    };
  };
}

export const onceCompiledSchemas = {
  compilersFactory: {
    buildValidator: memoised('validator', AjvCompiler() as unknown as Factory),
    buildSerializer: memoised('serializer', SerializerSelector() as unknown as Factory),
  },
} as FastifyServerOptions['schemaController'];
