import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from 'node:net';

/**
 * What every hand-written baseline shares with gatehouse's validate, so the comparison is like for like: the same
 * bearer parsing, key hash, header and body checks, and byte-identical reply bodies.
 */
export const PLATFORM_ID = /^[0-9]{13}$/;
export const GYM_ID = /^[1-9][0-9]{0,14}$/;

export function keyHash(header: string | undefined): string | undefined {
  const match = /^bearer +(.*)$/is.exec((header ?? '').trim());
  const token = match?.[1]?.trim();
  return token ? createHash('sha256').update(token, 'utf8').digest('hex') : undefined;
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export const DENY = {
  metadata: { total: 0, errors: 1 },
  errors: [{ Message: 'User is not authorized to access this resource with an explicit deny' }],
  Message: 'User is not authorized to access this resource with an explicit deny',
};

export const envelope = (key: string, message: string) => ({
  metadata: { total: 0, errors: 1 },
  errors: [{ message, key }],
});

export const REFUSALS: Record<string, [number, string, string]> = {
  notfound: [404, 'checkin.validation.notfound', 'Check-In not found in database'],
  cancelled: [400, 'checkin.validation.cancelled', 'Check-In cancelled'],
  expired: [400, 'checkin.validation.expired', 'Check-In expired'],
  validated: [400, 'checkin.already.validated', 'Check-In already validated'],
};

export function success(
  platformId: string,
  gymId: number,
  productId: number,
  description: string,
  at: number,
) {
  return {
    metadata: { total: 1, errors: 0 },
    results: {
      user: { platform_id: platformId },
      gym: { Id: gymId, product: { Id: productId, description } },
      validated_at: new Date(at).toISOString().slice(0, 19) + 'Z',
    },
  };
}

/** Parses the request as gatehouse would, answering 401/400 itself; returns what the store step needs. */
export async function parseValidate(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<ValidateInput | undefined> {
  const hash = keyHash(request.headers.authorization);
  if (hash === undefined) return void send(response, 401, { message: 'Unauthorized' });
  const gymHeader = request.headers['x-gym-id'];
  if (typeof gymHeader !== 'string' || !GYM_ID.test(gymHeader)) {
    return void send(response, 400, envelope('X-Gym-Id', 'must be a positive integer'));
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch {
    return void send(response, 400, envelope('body', 'malformed JSON'));
  }
  const platformId = (body as { platform_id?: unknown } | null)?.platform_id;
  if (typeof platformId !== 'string' || !PLATFORM_ID.test(platformId)) {
    return void send(response, 400, envelope('platform_id', 'must be a string of 13 digits'));
  }
  return { hash, gymId: Number(gymHeader), platformId };
}

export interface ValidateInput {
  readonly hash: string;
  readonly gymId: number;
  readonly platformId: string;
}

/**
 * Serves POST /access/v1/validate on loopback: parses as gatehouse does, hands the rest to `handle`, and prints
 * `listening <port>` for the harness.
 */
export function serveValidate(handle: (input: ValidateInput, response: ServerResponse) => unknown): void {
  createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/access/v1/validate') {
        return send(response, 404, envelope('route.not-found', 'no route matches this path'));
      }
      const input = await parseValidate(request, response);
      if (input !== undefined) await handle(input, response);
    })();
  }).listen(Number(process.env.PORT ?? 0), '127.0.0.1', function (this: Server) {
    const address = this.address();
    process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
  });
}

/** What the baselines cache, as gatehouse does: a live key with the gyms it may open, and a gym's owner. */
export interface CachedKey {
  readonly id: number;
  readonly partnerId: number;
  /** null: every gym of the partner. */
  readonly gyms: ReadonlySet<number> | null;
}

/**
 * Keys by hash and gyms' owners, each kept 5 s (gatehouse's default GATEHOUSE_KEY_CACHE_SECONDS): a revoked key
 * stops working within that time, in the baselines as in gatehouse. Only what exists is cached.
 */
export function createAuthCache(
  loadKey: (hash: string) => CachedKey | undefined,
  loadOwner: (gymId: number) => number | undefined,
) {
  const ttlMs = 5_000;
  const keys = new Map<string, { key: CachedKey; until: number }>();
  const owners = new Map<number, { owner: number | undefined; until: number }>();
  return {
    /** The key when it may open the gym; undefined for the same 403 whatever the reason. */
    authorize(hash: string, gymId: number, now: number): CachedKey | undefined {
      let entry = keys.get(hash);
      if (entry === undefined || entry.until <= now) {
        const key = loadKey(hash);
        if (key === undefined) return undefined;
        entry = { key, until: now + ttlMs };
        keys.set(hash, entry);
      }
      let owner = owners.get(gymId);
      if (owner === undefined || owner.until <= now) {
        owner = { owner: loadOwner(gymId), until: now + ttlMs };
        owners.set(gymId, owner);
      }
      const { key } = entry;
      if (owner.owner !== key.partnerId) return undefined;
      return key.gyms === null || key.gyms.has(gymId) ? key : undefined;
    },
  };
}
