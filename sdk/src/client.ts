import { errorFromAnswer, GatehouseError } from './errors.js';
import { NoAnswer, sendIdempotent, sendOnce, type Answer, type RetryPolicy } from './transport.js';
import type {
  CreatedWebhookEndpoint,
  CreatedWebhookEndpointBody,
  CustomCode,
  CustomCodeRequestBody,
  CustomCodeResultBody,
  GymTransaction,
  Integration,
  IntegrationResultBody,
  TestEventOutcome,
  TestEventOutcomeBody,
  TransactionsPageBody,
  TransactionsQueryParams,
  ValidateRequestBody,
  WebhookEndpointRequestBody,
  WebhookEventType,
  WebhookFormat,
} from './types.js';
import {
  readValidation,
  validateWithRetry,
  type ValidateInput,
  type ValidateResult,
  type ValidateRetry,
} from './validate.js';

export interface GatehouseClientOptions {
  /** Where gatehouse answers, e.g. `https://gatehouse.example.com` (paths start at /access/v1). */
  readonly baseUrl: string;
  /** The partner's API key. */
  readonly apiKey: string;
  /** The gym acted on: sent as X-Gym-Id. */
  readonly gymId: number | string;
  /** Longest wait for a whole answer, per attempt. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** A fetch implementation; default: the global one. */
  readonly fetch?: typeof globalThis.fetch;
  /** Retries of the idempotent calls (GET, PUT, DELETE). Never applied to validate or to create. */
  readonly retries?: RetryPolicy;
}

export interface ListTransactionsInput {
  readonly from?: string | Date;
  readonly to?: string | Date;
  readonly limit?: number;
  readonly cursor?: string;
}

/** A webhook endpoint to register; left out: every event type, every gym, the standard format. */
export interface CreateWebhookInput {
  readonly url: string;
  readonly eventTypes?: readonly WebhookEventType[] | null;
  readonly gymIds?: readonly number[] | null;
  readonly format?: WebhookFormat;
  /** standard: made for you when absent; wellhub: your own, required. */
  readonly secret?: string;
  readonly timeoutMs?: number;
}

function expectStatus(answer: Answer, status: number): Answer {
  if (answer.status === status) return answer;
  throw errorFromAnswer(answer.status, answer.body, answer.headers.get('x-request-id') ?? undefined);
}

function member(platformId: string): string {
  return `/access/v1/code/${encodeURIComponent(platformId)}`;
}

/** The partner API (/access/v1): typed results, typed errors (GatehouseError, OutcomeUnknownError). */
export class GatehouseClient {
  readonly #options: Required<Omit<GatehouseClientOptions, 'retries'>>;
  readonly #retries: RetryPolicy;

  constructor(options: GatehouseClientOptions) {
    this.#options = {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      gymId: options.gymId,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    };
    this.#retries = options.retries ?? {};
  }

  /**
   * Validates the member's check-in. Sent once: with no answer it throws OutcomeUnknownError, since
   * the check-in may have been validated. With `retry`, it re-sends after an unknown outcome and reads a later
   * `checkin.already.validated` as `{ status: 'validated-earlier' }`.
   */
  async validate(input: ValidateInput, options: { retry?: ValidateRetry } = {}): Promise<ValidateResult> {
    const body: ValidateRequestBody = {
      platform_id: input.platformId,
      ...(input.customCode === undefined ? {} : { custom_code: input.customCode }),
    };
    const send = () => sendOnce(this.#options, 'POST', '/access/v1/validate', body);
    const first = await send();
    if (first instanceof NoAnswer) {
      if (options.retry === undefined) throw first.toError(1);
      return validateWithRetry(send, first, options.retry);
    }
    return readValidation(expectStatus(first, 200));
  }

  /** Creates the member's code at the gym: 409 `checkin.custom-code.already-exists` if one exists. */
  async createCustomCode(platformId: string, code: string): Promise<void> {
    const body: CustomCodeRequestBody = { custom_code: code };
    const answer = await sendOnce(this.#options, 'POST', member(platformId), body);
    // Not idempotent: a create without an answer may have taken effect, so it is never re-sent.
    if (answer instanceof NoAnswer) throw answer.toError(1);
    expectStatus(answer, 201);
  }

  /** Replaces the member's code at the gym: 404 `checkin.custom-code.not-found` if none exists. */
  async updateCustomCode(platformId: string, code: string): Promise<void> {
    const body: CustomCodeRequestBody = { custom_code: code };
    const { answer } = await sendIdempotent(this.#options, this.#retries, 'PUT', member(platformId), body);
    expectStatus(answer, 200);
  }

  /**
   * Deletes the member's code at the gym. A 404 that follows an unanswered attempt means that attempt
   * deleted it, and counts as done.
   */
  async deleteCustomCode(platformId: string): Promise<void> {
    const sent = await sendIdempotent(this.#options, this.#retries, 'DELETE', member(platformId));
    const { answer } = sent;
    if (sent.afterNoAnswer && answer.status === 404) {
      const error = errorFromAnswer(answer.status, answer.body, undefined);
      if (error.key === 'checkin.custom-code.not-found') return;
    }
    expectStatus(answer, 204);
  }

  /** The member's code at the gym. */
  async getCustomCode(platformId: string): Promise<CustomCode> {
    const { answer } = await sendIdempotent(this.#options, this.#retries, 'GET', member(platformId));
    const body = expectStatus(answer, 200).body as Partial<CustomCodeResultBody> | undefined;
    if (typeof body?.results?.custom_code !== 'string') throw unexpected(answer);
    return body.results;
  }

  /**
   * The gym's validated visits, a page at a time. `nextCursor` is the cursor of the next page, null on the last
   * (loop while it is not null); `resumeCursor` is given on every page, the last one too: keep it and poll with it
   * later to get exactly the transactions that came since, none skipped.
   */
  async listTransactions(input: ListTransactionsInput = {}): Promise<TransactionsList> {
    const query: TransactionsQueryParams = {};
    if (input.from !== undefined) query.from = instant(input.from);
    if (input.to !== undefined) query.to = instant(input.to);
    if (input.limit !== undefined) query.limit = String(input.limit);
    if (input.cursor !== undefined) query.cursor = input.cursor;
    const search = new URLSearchParams(query as Record<string, string>).toString();
    const path = `/access/v1/transactions${search === '' ? '' : `?${search}`}`;
    const { answer } = await sendIdempotent(this.#options, this.#retries, 'GET', path);
    const page = expectStatus(answer, 200).body as Partial<TransactionsPageBody> | undefined;
    if (!Array.isArray(page?.results)) throw unexpected(answer);
    const cursor = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    const hasMore = typeof page.has_more === 'boolean' ? page.has_more : cursor !== null;
    return {
      transactions: page.results,
      nextCursor: hasMore ? cursor : null,
      hasMore,
      resumeCursor: cursor ?? input.cursor ?? null,
    };
  }

  /**
   * What this key reaches: the partner (live or sandbox), the gyms it may act on with their time zones, the rate
   * limit, the compatibility profile and each webhook endpoint's health. X-Gym-Id is sent and checked.
   */
  async checkIntegration(): Promise<Integration> {
    const { answer } = await sendIdempotent(this.#options, this.#retries, 'GET', '/access/v1/integration');
    const body = expectStatus(answer, 200).body as Partial<IntegrationResultBody> | undefined;
    if (typeof body?.results?.partner !== 'object') throw unexpected(answer);
    return body.results;
  }

  /** Registers a webhook endpoint of the key's partner; its signing secret is in the answer, this once only. */
  async createWebhook(input: CreateWebhookInput): Promise<CreatedWebhookEndpoint> {
    const body: WebhookEndpointRequestBody = {
      url: input.url,
      ...(input.eventTypes === undefined
        ? {}
        : { event_types: input.eventTypes === null ? null : [...input.eventTypes] }),
      ...(input.gymIds === undefined ? {} : { gym_ids: input.gymIds === null ? null : [...input.gymIds] }),
      ...(input.format === undefined ? {} : { format: input.format }),
      ...(input.secret === undefined ? {} : { secret: input.secret }),
      ...(input.timeoutMs === undefined ? {} : { timeout_ms: input.timeoutMs }),
    };
    const answer = await sendOnce(this.#options, 'POST', '/access/v1/webhooks', body);
    // Not idempotent: a create without an answer may have registered the endpoint, so it is never re-sent.
    if (answer instanceof NoAnswer) throw answer.toError(1);
    const created = expectStatus(answer, 201).body as Partial<CreatedWebhookEndpointBody> | undefined;
    if (typeof created?.results?.secret !== 'string') throw unexpected(answer);
    return created.results;
  }

  /** Removes a webhook endpoint and its delivery log. A 404 after an unanswered attempt counts as done. */
  async deleteWebhook(id: number): Promise<void> {
    const sent = await sendIdempotent(this.#options, this.#retries, 'DELETE', `/access/v1/webhooks/${id}`);
    if (sent.afterNoAnswer && sent.answer.status === 404) return;
    expectStatus(sent.answer, 204);
  }

  /**
   * Sends a signed test event to the endpoint now (a `test.ping`, or for the wellhub format a `checkin` of the test
   * member `0000000000000`) and resolves with how it went: `delivered` is false when the endpoint refused it or
   * did not answer. Nothing is logged or retried.
   */
  async testWebhook(id: number): Promise<TestEventOutcome> {
    const answer = await sendOnce(this.#options, 'POST', `/access/v1/webhooks/${id}/test`);
    if (answer instanceof NoAnswer) throw answer.toError(1);
    const body = expectStatus(answer, 200).body as Partial<TestEventOutcomeBody> | undefined;
    if (typeof body?.results?.delivered !== 'boolean') throw unexpected(answer);
    return body.results;
  }
}

export interface TransactionsList {
  readonly transactions: GymTransaction[];
  /** The next page's cursor; null when this page is the last for now. */
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
  /** Where to poll from later for what comes next (null only from a server that gives no cursor at the end). */
  readonly resumeCursor: string | null;
}

function instant(value: string | Date): string {
  return typeof value === 'string' ? value : value.toISOString();
}

function unexpected(answer: Answer): GatehouseError {
  const requestId = answer.headers.get('x-request-id') ?? undefined;
  return new GatehouseError(
    answer.status,
    'unexpected-response',
    'unexpected answer body',
    answer.body,
    requestId,
  );
}
