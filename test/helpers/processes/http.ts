import { setTimeout as sleep } from 'node:timers/promises';

export type Outcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: Headers;
      readonly body: unknown;
      readonly elapsedMs: number;
    }
  | { readonly kind: 'timeout'; readonly elapsedMs: number }
  | { readonly kind: 'network-error'; readonly message: string; readonly elapsedMs: number };

export interface SendOptions {
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
  /** The client gives up after this long; a timeout is an outcome, not an exception. */
  readonly timeoutMs?: number;
}

/** One real HTTP request; never throws, so a storm can tally every outcome. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const headers = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    return {
      kind: 'response',
      status: response.status,
      headers: response.headers,
      body,
      elapsedMs: elapsed(),
    };
  } catch (error) {
    const { name, message } = error as Error;
    if (name === 'TimeoutError') return { kind: 'timeout', elapsedMs: elapsed() };
    const cause = (error as { cause?: Error }).cause;
    return { kind: 'network-error', message: `${message} ${cause?.message ?? ''}`, elapsedMs: elapsed() };
  }
}

/** POST /access/v1/validate for one member. */
export function validate(
  baseUrl: string,
  headers: Record<string, string>,
  platformId: string,
  timeoutMs?: number,
) {
  return send(baseUrl, 'POST', '/access/v1/validate', {
    headers,
    json: { platform_id: platformId },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

/** Status and body in one value, for a whole-body `toEqual` that shows both on failure. */
export function reply(outcome: Outcome) {
  return outcome.kind === 'response' ? { status: outcome.status, body: outcome.body } : outcome;
}

/**
 * Repeats `attempt` every `intervalMs` until `done` accepts its result or `withinMs` has passed; returns the last
 * result and when it came. Every poll in these tests is bounded this way.
 */
export async function pollUntil<T>(
  attempt: () => Promise<T>,
  done: (result: T) => boolean,
  { withinMs, intervalMs = 50 }: { withinMs: number; intervalMs?: number },
) {
  const started = performance.now();
  for (;;) {
    const result = await attempt();
    const elapsedMs = Math.round(performance.now() - started);
    const ok = done(result);
    if (ok || elapsedMs >= withinMs) return { result, elapsedMs, done: ok };
    await sleep(intervalMs);
  }
}

/** The status, or what happened instead of one. */
export function statusOf(outcome: Outcome): number | 'timeout' | 'network-error' {
  return outcome.kind === 'response' ? outcome.status : outcome.kind;
}
