import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type { Actor } from '../domain/audit.js';
import { pageRequest, type Page, type PageOrder, type PageRequest } from '../domain/pagination.js';
import { presentPage } from '../presenters/records.js';
import { actorOfRequest } from './authenticate.js';
import { IdString, ListOf, OrderQuery, PageQuery, operatorErrorResponses } from './schemas.js';

interface RecordRoute {
  readonly url: string;
  readonly summary: string;
}

/** The path parameter naming the record, if the URL has one: `gym_id` in `/gyms/:gym_id/retire`. */
const idParameter = (url: string): string | undefined => /:(\w+)/.exec(url)?.[1];

/** The id parameter and its schema, for a route whose URL must name one record. */
function paramsOf(url: string) {
  const id = idParameter(url);
  if (id === undefined) throw new Error(`${url} names no record`);
  return { id, params: Type.Object({ [id]: IdString }) };
}

function idOf(params: unknown, id: string): number {
  return Number((params as Record<string, string>)[id]);
}

/**
 * A change to one record (rename, retire, offboard, cancel, mark paid, set its profile): `POST` (or `PATCH`, `PUT`) with the body, if any,
 * that `body` describes; the change takes the record's id, who asks and that body, and the answer is the record as
 * it now is (200). A route states its URL, summary, schemas and change only.
 */
export function recordChangeRoute<Body extends TSchema>(
  app: FastifyInstance,
  route: RecordRoute & {
    readonly method?: 'POST' | 'PATCH' | 'PUT';
    readonly body?: Body;
    readonly record: TSchema;
    readonly change: (id: number, actor: Actor, body: Static<Body>) => Promise<unknown>;
  },
): void {
  const { id, params } = paramsOf(route.url);
  const body = route.body === undefined ? {} : { body: route.body };
  app.route({
    method: route.method ?? 'POST',
    url: route.url,
    schema: {
      summary: route.summary,
      params,
      ...body,
      response: { 200: route.record, ...operatorErrorResponses },
    },
    handler: async (request) =>
      route.change(idOf(request.params, id), actorOfRequest(request), request.body as Static<Body>),
  });
}

/**
 * `POST` that makes a record: the body `body` describes, and the answer the record as `created` shows it (201).
 * `create` takes that body, who asks, and the id of the record the URL names if it names one (a gym's products).
 */
export function createRoute<Body extends TSchema>(
  app: FastifyInstance,
  route: RecordRoute & {
    readonly body: Body;
    readonly created: TSchema;
    readonly create: (body: Static<Body>, actor: Actor, owner: number) => Promise<unknown>;
  },
): void {
  const id = idParameter(route.url);
  const params = id === undefined ? {} : { params: Type.Object({ [id]: IdString }) };
  const response = { 201: route.created, ...operatorErrorResponses };
  app.post(
    route.url,
    { schema: { summary: route.summary, ...params, body: route.body, response } },
    async (request, reply) => {
      const owner = id === undefined ? Number.NaN : idOf(request.params, id);
      const created = await route.create(request.body as Static<Body>, actorOfRequest(request), owner);
      return reply.code(201).send(created);
    },
  );
}

/**
 * `GET` a page of records (`limit` and `cursor` only): `list` reads the page asked for, of the record the path
 * names if it names one (a partner's keys); each item is answered as `present` shows it.
 */
export function pageRoute<T>(
  app: FastifyInstance,
  route: RecordRoute & {
    readonly item: TSchema;
    readonly list: (page: PageRequest, id: number) => Promise<Page<T>>;
    readonly present: (item: T) => unknown;
    /** The list reads newest first too, with `order=desc`. */
    readonly ordered?: true;
  },
): void {
  const id = idParameter(route.url);
  const params = id === undefined ? {} : { params: Type.Object({ [id]: IdString }) };
  app.get(
    route.url,
    {
      schema: {
        summary: route.summary,
        ...params,
        querystring: Type.Object(route.ordered === true ? { ...OrderQuery, ...PageQuery } : PageQuery),
        response: { 200: ListOf(route.item), ...operatorErrorResponses },
      },
    },
    async (request) => {
      const page = pageRequest(request.query as { limit?: string; cursor?: string; order?: PageOrder });
      const owner = id === undefined ? Number.NaN : idOf(request.params, id);
      return presentPage(await route.list(page, owner), route.present);
    },
  );
}

/** `DELETE` one credential (a key, an operator's token): refused from its next request on; 204, no body. */
export function revokeRoute(
  app: FastifyInstance,
  route: RecordRoute & { readonly revoke: (id: number, actor: Actor) => Promise<unknown> },
): void {
  const { id, params } = paramsOf(route.url);
  app.delete(
    route.url,
    {
      schema: {
        summary: route.summary,
        params,
        response: { 204: Type.Null({ description: 'Revoked' }), ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      await route.revoke(idOf(request.params, id), actorOfRequest(request));
      return reply.code(204).send(null);
    },
  );
}
