import { isIP, type LookupFunction } from 'node:net';
import { Agent } from 'undici';
import type { AttemptResult } from '../../domain/webhooks/attempt-outcome.js';
import { isPublicAddress, literalAddress } from '../../domain/webhooks/address-rules.js';
import { MAX_TIMEOUT_MS } from '../../domain/webhooks/endpoint.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { Resolver } from './resolver.js';

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

/** The codes an error carries: undici's own, and the socket's beneath it. */
function codesOf(error: Error & { code?: unknown; cause?: unknown }): string[] {
  const cause = error.cause as { code?: unknown } | undefined;
  return [error.code, cause?.code].filter((code): code is string => typeof code === 'string');
}

function describe(error: Error, timeoutMs: number, timedOut: boolean, stopped: boolean): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  if (stopped) return 'sending stopped';
  const codes = codesOf(error);
  if (codes.includes('EBLOCKED')) return BLOCKED;
  if (codes.includes('ECONNREFUSED')) return 'connection refused';
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) return 'host name does not resolve';
  // The other side closed the connection before its answer (undici's "other side closed").
  if (codes.includes('ECONNRESET') || codes.includes('UND_ERR_SOCKET')) return 'connection reset';
  return codes[0] ?? 'connection failed';
}

/** The answer's body, read to its end (so the connection is kept), its first `bytes` kept when asked. */
function readAnswer(
  body: NodeJS.ReadableStream,
  bytes: number | undefined,
  done: (excerpt: string | undefined) => void,
  cutShort: () => void,
): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  body.on('data', (chunk: Buffer) => {
    if (bytes === undefined || kept >= bytes) return;
    chunks.push(chunk.subarray(0, bytes - kept));
    kept += Math.min(chunk.length, bytes - kept);
  });
  body.on('end', () => done(bytes === undefined ? undefined : Buffer.concat(chunks).toString('utf8')));
  body.on('error', cutShort);
}

/**
 * POSTs webhooks through undici (Node's own HTTP client, a fraction of `http.request`'s CPU per request): up to 32
 * kept-alive connections per origin, redirects not followed, and a response must come (headers and body) within the
 * timeout. Every connection dials the address the guarded lookup allows.
 */
export function createSender(resolver: Resolver, allowPrivate: boolean) {
  const agent = new Agent({
    connections: 32,
    // The endpoint's own timeout bounds every attempt; undici's are set past the longest one.
    connect: { lookup: guardedLookup(resolver, allowPrivate), timeout: MAX_TIMEOUT_MS + 1000 },
    headersTimeout: MAX_TIMEOUT_MS + 1000,
    bodyTimeout: MAX_TIMEOUT_MS + 1000,
  });

  function send(request: SendRequest): Promise<AttemptResult> {
    const url = new URL(request.url);
    const literal = literalAddress(url.hostname);
    if (literal !== undefined && !allowPrivate && !isPublicAddress(literal)) {
      return Promise.resolve({ kind: 'no-answer', error: BLOCKED });
    }
    return new Promise((resolve) => {
      const cut = new AbortController();
      const stop = () => cut.abort();
      let timedOut = false;
      let settled = false;
      const settle = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal.removeEventListener('abort', stop);
        resolve(result);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        cut.abort();
      }, request.timeoutMs);
      if (request.signal.aborted) cut.abort();
      else request.signal.addEventListener('abort', stop);
      agent
        .request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          signal: cut.signal,
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
        })
        .then(
          ({ statusCode, headers, body }) => {
            const given = headers['retry-after'];
            const retryAfter = Array.isArray(given) ? given[0] : given;
            readAnswer(
              body,
              request.excerptBytes,
              (excerpt) =>
                settle({
                  kind: 'answer',
                  statusCode,
                  ...(retryAfter === undefined ? {} : { retryAfter }),
                  ...(excerpt === undefined ? {} : { excerpt }),
                }),
              () =>
                settle({
                  kind: 'no-answer',
                  error: timedOut ? `timed out after ${request.timeoutMs} ms` : 'answer cut short',
                }),
            );
          },
          (error: Error) =>
            settle({
              kind: 'no-answer',
              error: describe(error, request.timeoutMs, timedOut, request.signal.aborted),
            }),
        );
    });
  }

  return {
    send,
    close(): void {
      void agent.destroy().catch(() => undefined);
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
