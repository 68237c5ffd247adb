import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { Actor } from '../domain/audit.js';
import type { Page, PageRequest } from '../domain/pagination.js';
import type { EndpointManager } from '../services/webhooks/endpoint-access.js';

/** Who asks, as a webhook route needs it: whose endpoints a new one or a listing is, the audit's actor, the scope. */
export interface WebhookCaller {
  readonly partnerId: number;
  readonly actor: Actor;
  readonly as: EndpointManager;
}

/** How one side pages a list and answers it. */
export interface Listing {
  /** The query's paging fields, if the list is paged by the caller. */
  readonly query?: Readonly<Record<string, TSchema>>;
  schema(item: TSchema): TSchema;
  page(request: FastifyRequest): PageRequest;
  answer<T, W>(page: Page<T>, present: (item: T) => W): unknown;
}

/**
 * What makes the partner's webhook routes and the operator's differ (README, "Webhooks"): where a partner's
 * collection is, the headers, the error answers, how an answer is wrapped, how lists are paged, who asks. The
 * routes themselves (src/http/webhook-routes.ts, webhook-log-routes.ts) are written once.
 */
export interface WebhookRouteSide {
  /** The collection's URL: `/webhooks` (the key's partner) or `/partners/:partner_id/webhooks`. */
  readonly collection: string;
  /** The URL of a delivery's retry: under its endpoint, or on its own. */
  readonly retry: string;
  /** A path id's schema (the partner API's allows one digit more than the operator API's). */
  readonly pathId: TSchema;
  readonly headers?: TSchema;
  readonly errors: Readonly<Record<number, TSchema>>;
  /** Answers a create may add to `errors` (the partner's 409 `webhook.limit`). */
  readonly createErrors?: Readonly<Record<number, TSchema>>;
  readonly config?: { readonly unexpectedErrorKey: string };
  /** An answer's schema and value: in the partner API's envelope, or bare. */
  readonly wrap: { schema(results: TSchema): TSchema; value(results: unknown): unknown };
  readonly endpointList: Listing;
  readonly deliveryList: Listing;
  caller(request: FastifyRequest): WebhookCaller;
  /** The endpoint list's summary: whose endpoints it lists. */
  readonly listSummary: string;
}

/** The ids a URL names (`:webhook_id`, `:delivery_id`, `:partner_id`), each as the side reads a path id. */
const idParams = (url: string, id: TSchema) =>
  Type.Object(Object.fromEntries([...url.matchAll(/:(\w+)/g)].map(([, name]) => [name ?? '', id])));

/** A path id of the request, as a number. */
export const pathId = (request: FastifyRequest, name: 'webhook_id' | 'delivery_id'): number =>
  Number((request.params as Record<string, string>)[name]);

export interface WebhookRoute {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly summary: string;
  readonly body?: TSchema;
  readonly query?: Readonly<Record<string, TSchema>>;
  readonly status: number;
  readonly answer: TSchema;
  readonly errors?: Readonly<Record<number, TSchema>>;
  readonly preValidation?: (request: FastifyRequest) => Promise<void>;
  readonly handle: (request: FastifyRequest, caller: WebhookCaller) => Promise<unknown>;
}

/** Declares one webhook route on a side: its schemas with the side's headers, errors and config, then the call. */
export function declare(app: FastifyInstance, side: WebhookRouteSide, route: WebhookRoute): void {
  const query = route.query === undefined ? {} : { querystring: Type.Object({ ...route.query }) };
  app.route({
    method: route.method,
    url: route.url,
    schema: {
      summary: route.summary,
      ...(side.headers === undefined ? {} : { headers: side.headers }),
      ...(route.url.includes(':') ? { params: idParams(route.url, side.pathId) } : {}),
      ...(route.body === undefined ? {} : { body: route.body }),
      ...query,
      response: { [route.status]: route.answer, ...side.errors, ...route.errors },
    },
    ...(side.config === undefined ? {} : { config: side.config }),
    ...(route.preValidation === undefined ? {} : { preValidation: route.preValidation }),
    handler: async (request, reply) => {
      const answer = await route.handle(request, side.caller(request));
      return reply.code(route.status).send(answer);
    },
  });
}

/** A route that answers one page of a list, its query, paging and answer as the side's `listing` makes them. */
export function declareList<T>(
  app: FastifyInstance,
  side: WebhookRouteSide,
  listing: Listing,
  route: Pick<WebhookRoute, 'url' | 'summary' | 'query'> & {
    readonly item: TSchema;
    readonly list: (request: FastifyRequest, caller: WebhookCaller, page: PageRequest) => Promise<Page<T>>;
    readonly present: (item: T) => unknown;
  },
): void {
  const noQuery = route.query === undefined && listing.query === undefined;
  declare(app, side, {
    method: 'GET',
    url: route.url,
    summary: route.summary,
    ...(noQuery ? {} : { query: { ...route.query, ...listing.query } }),
    status: 200,
    answer: listing.schema(route.item),
    handle: async (request, caller) =>
      listing.answer(await route.list(request, caller, listing.page(request)), route.present),
  });
}
