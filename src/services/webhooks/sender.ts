import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AttemptResult } from '../../domain/webhooks/attempt-outcome.js';
import { isPublicAddress, literalAddress } from '../../domain/webhooks/address-rules.js';
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

function describe(
  error: NodeJS.ErrnoException,
  timeoutMs: number,
  timedOut: boolean,
  stopped: boolean,
): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  if (stopped) return SENDING_STOPPED;
  if (error.code === 'EBLOCKED') return BLOCKED;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'host name does not resolve';
  if (error.code === 'ECONNRESET') return 'connection reset';
  return error.code ?? 'connection failed';
}

/** Reads the answer's body away, keeping its first `bytes` when asked: the excerpt, as text, when it ends. */
function keepExcerpt(response: http.IncomingMessage, bytes: number | undefined): (() => string) | undefined {
  if (bytes === undefined) {
    response.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  response.on('data', (chunk: Buffer) => {
    if (kept >= bytes) return;
    chunks.push(chunk.subarray(0, bytes - kept));
    kept += Math.min(chunk.length, bytes - kept);
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

/** POSTs webhooks: redirects are not followed, a response must come (headers and body) within the timeout. */
export function createSender(resolver: Resolver, allowPrivate: boolean) {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 32 }),
  };
  const lookup = guardedLookup(resolver, allowPrivate);

  function send(request: SendRequest): Promise<AttemptResult> {
    const url = new URL(request.url);
    const literal = literalAddress(url.hostname);
    if (literal !== undefined && !allowPrivate && !isPublicAddress(literal)) {
      return Promise.resolve({ kind: 'no-answer', error: BLOCKED });
    }
    const secure = url.protocol === 'https:';
    return new Promise((resolve) => {
      let timedOut = false;
      let settled = false;
      const settle = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const outgoing = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup,
        signal: request.signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
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
      });
      const timer = setTimeout(() => {
        timedOut = true;
        outgoing.destroy(new Error('timeout'));
      }, request.timeoutMs);
      outgoing.on('response', (response) => {
        const retryAfter = response.headers['retry-after'];
        const excerpt = keepExcerpt(response, request.excerptBytes);
        response.on('end', () =>
          settle({
            kind: 'answer',
            statusCode: response.statusCode ?? 0,
            ...(retryAfter === undefined ? {} : { retryAfter }),
            ...(excerpt === undefined ? {} : { excerpt: excerpt() }),
          }),
        );
        response.on('error', () => undefined);
        response.on('close', () =>
          settle({
            kind: 'no-answer',
            error: timedOut ? `timed out after ${request.timeoutMs} ms` : 'answer cut short',
          }),
        );
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        settle({
          kind: 'no-answer',
          error: describe(error, request.timeoutMs, timedOut, request.signal.aborted),
        }),
      );
      outgoing.end(request.body);
    });
  }

  return {
    send,
    close(): void {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
