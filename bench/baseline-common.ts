import { createHash, timingSafeEqual } from 'node:crypto';
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

/** What a check-in creation needs once parsed: the member, the gym, the product. */
export interface CreateInput {
  readonly platformId: string;
  readonly gymId: number;
  readonly productId: number;
}

/**
 * Parses `POST /admin/v1/checkins` as gatehouse would: the operator token (compared in constant time), then the
 * body's three fields; answers 401/403/400 itself.
 */
export async function parseCreate(
  request: IncomingMessage,
  response: ServerResponse,
  adminTokenHash: Buffer,
): Promise<CreateInput | undefined> {
  const hash = keyHash(request.headers.authorization);
  if (hash === undefined)
    return void send(response, 401, envelope('authorization', 'a bearer token is required'));
  if (!timingSafeEqual(Buffer.from(hash, 'hex'), adminTokenHash)) {
    return void send(response, 403, envelope('authorization', 'invalid admin token'));
  }
  let body: { platform_id?: unknown; gym_id?: unknown; product_id?: unknown } | null;
  try {
    body = JSON.parse(await readBody(request)) as typeof body;
  } catch {
    return void send(response, 400, envelope('body', 'malformed JSON'));
  }
  const platformId = body?.platform_id;
  if (typeof platformId !== 'string' || !PLATFORM_ID.test(platformId)) {
    return void send(response, 400, envelope('platform_id', 'must be a string of 13 digits'));
  }
  const { gym_id: gymId, product_id: productId } = body ?? {};
  if (!Number.isSafeInteger(gymId) || (gymId as number) < 1) {
    return void send(response, 400, envelope('gym_id', 'must be a positive integer'));
  }
  if (!Number.isSafeInteger(productId) || (productId as number) < 1) {
    return void send(response, 400, envelope('product_id', 'must be a positive integer'));
  }
  return { platformId, gymId: gymId as number, productId: productId as number };
}

/** gatehouse's defaults for a created check-in: valid 20 minutes; one validated visit per member·gym a day. */
export const CHECKIN_TTL_MS = 1_200_000;
export const DAILY_VISIT_LIMIT = 1;

/** The UTC day around `at`: [start, end). */
export function dayOf(at: number): { start: number; end: number } {
  const start = at - (at % 86_400_000);
  return { start, end: start + 86_400_000 };
}

/** The created check-in as gatehouse's operator API answers it (201). */
export function createdCheckin(id: number, input: CreateInput, at: number) {
  return {
    id,
    platform_id: input.platformId,
    gym_id: input.gymId,
    product_id: input.productId,
    status: 'pending',
    checked_in_at: new Date(at).toISOString(),
    expires_at: new Date(at + CHECKIN_TTL_MS).toISOString(),
    validated_at: null,
    cancelled_at: null,
  };
}

/** What a baseline's event says about a check-in: the facts gatehouse's events carry, as gatehouse writes them. */
export interface CheckinEventFacts {
  readonly id: number;
  readonly platformId: string;
  readonly gymId: number;
  readonly product: { readonly id: number; readonly description: string };
  readonly checkedInAt: number;
  readonly expiresAt: number;
}

/** What every check-in event says, whatever happened to the check-in. */
function checkinEventFields(c: CheckinEventFacts, status: 'pending' | 'validated') {
  return {
    checkin_id: c.id,
    platform_id: c.platformId,
    gym_id: c.gymId,
    product: c.product,
    status,
    checked_in_at: new Date(c.checkedInAt).toISOString(),
    expires_at: new Date(c.expiresAt).toISOString(),
  };
}

/** The JSON payload of a `checkin.created` event. */
export function createdEventData(c: CheckinEventFacts): string {
  return JSON.stringify(checkinEventFields(c, 'pending'));
}

/** The JSON payload of a `checkin.validated` event, with the ledger row it wrote. */
export function validatedEventData(
  c: CheckinEventFacts,
  transactionId: number,
  at: number,
  payoutCents: number,
  currency: string,
): string {
  return JSON.stringify({
    ...checkinEventFields(c, 'validated'),
    transaction_id: transactionId,
    validated_at: new Date(at).toISOString(),
    payout_cents: payoutCents,
    currency,
  });
}

export const NO_PRODUCT = envelope('product.not-found', 'product not found');
export const WRONG_GYM = envelope('product_id', 'is not a product of that gym');
export const DAILY_LIMIT = envelope(
  'checkin.daily-limit',
  'daily visit limit reached for this member at this gym',
);

/**
 * Serves POST /access/v1/validate (and, when given `create`, POST /admin/v1/checkins with the admin token in
 * GATEHOUSE_ADMIN_TOKEN) on loopback: parses as gatehouse does, hands the rest to the handlers, and prints
 * `listening <port>` for the harness.
 */
export function serveValidate(
  handle: (input: ValidateInput, response: ServerResponse) => unknown,
  create?: (input: CreateInput, response: ServerResponse) => unknown,
): void {
  const adminTokenHash = createHash('sha256')
    .update(process.env.GATEHOUSE_ADMIN_TOKEN ?? '', 'utf8')
    .digest();
  createServer((request, response) => {
    void (async () => {
      if (request.method === 'POST' && request.url === '/access/v1/validate') {
        const input = await parseValidate(request, response);
        if (input !== undefined) await handle(input, response);
      } else if (create !== undefined && request.method === 'POST' && request.url === '/admin/v1/checkins') {
        const input = await parseCreate(request, response, adminTokenHash);
        if (input !== undefined) await create(input, response);
      } else {
        send(response, 404, envelope('route.not-found', 'no route matches this path'));
      }
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
