import { isIP, type LookupFunction } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import type { AttemptResult } from '../../domain/webhooks/attempt-outcome.js';
import { isPublicAddress, literalAddress } from '../../domain/webhooks/address-rules.js';
import { MAX_TIMEOUT_MS } from '../../domain/webhooks/endpoint.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { Resolver } from './resolver.js';
import { waitingUnder } from './waiting-under.js';

/** What the Standard Webhooks signature headers are made of, besides the body. */
export interface Signing {
  readonly secrets: readonly string[];
  readonly id: string;
  readonly timestampSeconds: number;
}

export interface SendRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * Signed as it is sent (Standard Webhooks headers added to `headers`): where requests go out from a thread of
   * their own, so does the HMAC of every body.
   */
  readonly signing?: Signing;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Keep the first this many bytes of the answer's body (a test event shows them); none unless asked. */
  readonly excerptBytes?: number;
}

const BLOCKED = 'address not allowed for webhooks (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE)';

/** What an attempt cut short by its abort signal (the loop stopping) ends with, wherever it is sent from. */
export const SENDING_STOPPED = 'sending stopped';

/**
 * The name is resolved again when a connection is made, and only an allowed address is dialled: a name that
 * pointed somewhere public at registration cannot be turned to a private one later (DNS rebinding).
 */
function guardedLookup(resolver: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        const allowed = allowPrivate ? addresses : addresses.filter(isPublicAddress);
        const first = allowed[0];
        if (first === undefined) {
          callback(Object.assign(new Error(BLOCKED), { code: 'EBLOCKED' }), '', 4);
        } else if (options.all === true) {
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
            null,
            allowed.map((address) => ({ address, family: isIP(address) })),
          );
        } else callback(null, first, isIP(first));
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/** An error of the client's own: the connection closed under the request (undici's SocketError). */
const SOCKET_CLOSED = 'UND_ERR_SOCKET';

/** Words for an attempt that ended without a whole answer, before its answer began or during it. */
function describe(error: NodeJS.ErrnoException, answering: boolean): string {
  if (answering) return 'answer cut short';
  if (error.code === 'EBLOCKED') return BLOCKED;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'host name does not resolve';
  if (error.code === 'ECONNRESET' || error.code === SOCKET_CLOSED) return 'connection reset';
  return error.code ?? 'connection failed';
}

/** An attempt under way: `cutShort` ends it now with its own words (its answer, if any, is not waited for). */
export type CutShort = (error: string) => void;

/**
 * Starts one attempt; `done` gets its result once, never before `start` has returned, and never after the attempt
 * was cut short (which settles it with the words given).
 */
export type StartAttempt = (
  request: Omit<SendRequest, 'signal'>,
  done: (result: AttemptResult) => void,
) => CutShort;

/**
 * `send` over a sender's `start`: a promise per attempt, cut short when its signal aborts (one listener per signal,
 * however many attempts wait under it). For the callers that send one attempt at a time (test events, and the
 * delivery loop's tests); the delivery loop starts its attempts itself.
 */
export function sendingUnderSignals(start: StartAttempt): (request: SendRequest) => Promise<AttemptResult> {
  // The attempts sent under each signal, all cut short when it aborts (each one's end takes it out of the set).
  const attemptsUnder = waitingUnder<CutShort>((waiting) => {
    for (const cutShort of [...waiting]) cutShort(SENDING_STOPPED);
  });
  return ({ signal, ...request }) => {
    if (signal.aborted) return Promise.resolve({ kind: 'no-answer', error: SENDING_STOPPED });
    const waiting = attemptsUnder(signal);
    return new Promise((resolve) => {
      const cutShort = start(request, (result) => {
        waiting.delete(cutShort);
        resolve(result);
      });
      waiting.add(cutShort);
    });
  };
}

/**
 * POSTs webhooks through undici's connection pool (its dispatcher API: no stream or promise per request, a
 * fraction of node:http's CPU and garbage per attempt): redirects are not followed, a response must come (headers
 * and body) within the timeout, and only an address the guarded lookup allows is dialled. The client is loaded
 * when the sender is made, in the background (a command that sends nothing never loads it).
 */
export function createSender(resolver: Resolver, allowPrivate: boolean) {
  let agent: Agent | undefined;
  const loading = import('undici').then(
    (undici) =>
      (agent = new undici.Agent({
        connections: 32,
        // The attempt's own timer (at most MAX_TIMEOUT_MS) ends a connection that never opens; this is a backstop.
        connect: { lookup: guardedLookup(resolver, allowPrivate), timeout: MAX_TIMEOUT_MS + 5_000 },
      })),
  );
  // A client that cannot be loaded fails each attempt with that reason (below), not the process.
  loading.catch(() => undefined);

  const start: StartAttempt = (request, done) => {
    const url = new URL(request.url);
    const literal = literalAddress(url.hostname);
    if (literal !== undefined && !allowPrivate && !isPublicAddress(literal)) {
      queueMicrotask(() => done({ kind: 'no-answer', error: BLOCKED }));
      return () => undefined;
    }
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    let cut: Error | undefined;
    let answering = false;
    let statusCode = 0;
    let retryAfter: string | undefined;
    const excerpt: Buffer[] = [];
    let kept = 0;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(result);
    };
    const cutShort: CutShort = (error) => {
      settle({ kind: 'no-answer', error });
      cut ??= new Error(error);
      controller?.abort(cut);
    };
    const timer = setTimeout(() => cutShort(`timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    const wanted = request.excerptBytes ?? 0;
    const dispatch = (pool: Agent) => {
      // Cut short while the client was loading: nothing is sent.
      if (settled) return;
      try {
        pool.dispatch(
          {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'user-agent': 'gatehouse-webhooks',
              ...request.headers,
              ...(request.signing === undefined
                ? {}
                : signedHeaders(
                    request.signing.secrets,
                    request.signing.id,
                    request.signing.timestampSeconds,
                    request.body,
                  )),
            },
            body: request.body,
          },
          {
            onRequestStart(started) {
              controller = started;
              if (cut !== undefined) started.abort(cut);
            },
            onResponseStart(_, status, headers) {
              // An informational 1xx is not the answer.
              if (status < 200) return;
              answering = true;
              statusCode = status;
              const value = headers['retry-after'];
              retryAfter = Array.isArray(value) ? value[0] : value;
            },
            onResponseData(_, chunk) {
              if (kept >= wanted) return;
              excerpt.push(chunk.subarray(0, wanted - kept));
              kept += Math.min(chunk.length, wanted - kept);
            },
            onResponseEnd() {
              settle({
                kind: 'answer',
                statusCode,
                ...(retryAfter === undefined ? {} : { retryAfter }),
                ...(request.excerptBytes === undefined
                  ? {}
                  : { excerpt: Buffer.concat(excerpt).toString('utf8') }),
              });
            },
            onResponseError(_, error: NodeJS.ErrnoException) {
              settle({ kind: 'no-answer', error: describe(error, answering) });
            },
          },
        );
      } catch (error) {
        // Refused before it was sent (a header it cannot carry): answered as an attempt, after `start` returns.
        const failed = describe(error as NodeJS.ErrnoException, false);
        queueMicrotask(() => settle({ kind: 'no-answer', error: failed }));
      }
    };
    if (agent !== undefined) dispatch(agent);
    else
      loading.then(dispatch, (error: Error) =>
        settle({ kind: 'no-answer', error: `webhook client could not be loaded: ${error.message}` }),
      );
    return cutShort;
  };

  return {
    start,
    send: sendingUnderSignals(start),
    close(): void {
      loading.then((pool) => pool.destroy()).catch(() => undefined);
    },
  } satisfies Sender;
}

/** What sends attempts: this process's sender, or one whose requests go out from a thread of their own. */
export interface Sender {
  /** One attempt, its result by callback: what the delivery loop uses (no promise per attempt). */
  start: StartAttempt;
  /** One attempt, its result as a promise, cut short when the signal aborts. */
  send(request: SendRequest): Promise<AttemptResult>;
  close(): void;
}
