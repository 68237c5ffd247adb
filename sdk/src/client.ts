import { errorFromAnswer, GatehouseError } from './errors.js';
import { NoAnswer, sendIdempotent, sendOnce, type Answer, type RetryPolicy } from './transport.js';
import type {
  CustomCode,
  CustomCodeRequestBody,
  CustomCodeResultBody,
  GymTransaction,
  TransactionsPageBody,
  TransactionsQueryParams,
  ValidateRequestBody,
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
