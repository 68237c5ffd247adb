import { OutcomeUnknownError } from './errors.js';

/** What came back: status, headers and the body, parsed when it is JSON (undefined when empty). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly gymId: number | string;
  readonly timeoutMs: number;
  readonly fetch: typeof globalThis.fetch;
}

/** A request that got no answer: the caller decides whether that means "retry" or "outcome unknown". */
export class NoAnswer {
  constructor(
    readonly reason: 'timeout' | 'network',
    readonly cause: unknown,
  ) {}

  toError(attempts: number): OutcomeUnknownError {
    return new OutcomeUnknownError(this.reason, attempts, { cause: this.cause });
  }
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * Sends one request, the whole exchange (headers and body) bounded by the timeout. Resolves with the answer, or
 * with a NoAnswer when none came: it never throws for a network failure.
 */
export async function sendOnce(
  options: TransportOptions,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer | NoAnswer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey}`,
    'x-gym-id': String(options.gymId),
    accept: 'application/json',
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await options.fetch(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseBody(text) };
  } catch (error) {
    return new NoAnswer(isTimeout(error) ? 'timeout' : 'network', error);
  }
}

/** How the idempotent calls (GET, PUT, DELETE) retry: bounded, with a growing delay. */
export interface RetryPolicy {
  /** Attempts in all, the first included (1: never retry). Default 3. */
  readonly attempts?: number;
  /** Delay before the first retry, doubled for each next one. Default 100 ms. */
  readonly delayMs?: number;
  /** The longest wait, Retry-After included: a longer Retry-After is not waited for. Default 5000 ms. */
  readonly maxDelayMs?: number;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends an idempotent request, and again after a network failure, a timeout, a 503 or a 429 (waiting what
 * Retry-After asks, when it asks for no more than maxDelayMs). `afterNoAnswer` tells whether an earlier attempt
 * went unanswered — it may have taken effect. Out of attempts without an answer: OutcomeUnknownError.
 */
export async function sendIdempotent(
  options: TransportOptions,
  policy: RetryPolicy,
  method: 'GET' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ answer: Answer; afterNoAnswer: boolean }> {
  const attempts = Math.max(1, policy.attempts ?? 3);
  const maxDelayMs = policy.maxDelayMs ?? 5000;
  let afterNoAnswer = false;
  for (let attempt = 1; ; attempt += 1) {
    const result = await sendOnce(options, method, path, body);
    const backoff = Math.min(maxDelayMs, (policy.delayMs ?? 100) * 2 ** (attempt - 1));
    if (result instanceof NoAnswer) {
      if (attempt >= attempts) throw result.toError(attempt);
      afterNoAnswer = true;
      await sleep(backoff);
      continue;
    }
    if (!RETRIED_STATUSES.has(result.status) || attempt >= attempts) return { answer: result, afterNoAnswer };
    const asked = retryAfterMs(result.headers.get('retry-after'));
    if (asked !== undefined && asked > maxDelayMs) return { answer: result, afterNoAnswer };
    await sleep(asked ?? backoff);
  }
}
