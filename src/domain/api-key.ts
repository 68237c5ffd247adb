import { hash, randomBytes } from 'node:crypto';

/**
 * Keys look like `ghk_<8 hex>_<40 hex>`; `ghk_<8 hex>` is the recognisable, non-secret prefix. A sandbox partner's
 * keys start `ghk_test_`, so a test key is told from a live one at a glance, and by its prefix alone.
 */
const KEY_MARKER = 'ghk_';
const SANDBOX_MARKER = 'ghk_test_';

export interface GeneratedApiKey {
  readonly secret: string;
  readonly prefix: string;
  readonly hash: string;
}

const PRESENTED_PREFIX = /^(ghk_(?:test_)?[0-9a-f]{8})_/;

/** Whether a key (by its prefix) is a sandbox partner's. */
export function isSandboxKey(key: { readonly prefix: string }): boolean {
  return key.prefix.startsWith(SANDBOX_MARKER);
}

/** The prefix of a token shaped like a gatehouse key, to name it in logs; undefined for anything else. */
export function presentedPrefix(token: string): string | undefined {
  return PRESENTED_PREFIX.exec(token)?.[1];
}

export function hashApiKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function generateApiKey(sandbox = false): GeneratedApiKey {
  const prefix = (sandbox ? SANDBOX_MARKER : KEY_MARKER) + randomBytes(4).toString('hex');
  const secret = `${prefix}_${randomBytes(20).toString('hex')}`;
  return { secret, prefix, hash: hashApiKey(secret) };
}

/**
 * The token follows a case-insensitive `Bearer` and one or more spaces, trimmed.
 * Returns undefined when there is no usable bearer token (→ 401).
 */
export function parseBearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^bearer +(.*)$/is.exec(header.trim());
  const token = match?.[1]?.trim();
  return token === undefined || token === '' ? undefined : token;
}
