import { createHmac, randomBytes } from 'node:crypto';

/** The Standard Webhooks secret format: `whsec_` and the base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,172}={0,2}$/;

/** A new signing secret: 32 random bytes, as the Standard Webhooks libraries generate them. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Whether a given secret is one the receivers' libraries can use: `whsec_` + base64 of 24 to 64 bytes. */
export function isStandardSecret(secret: string): boolean {
  if (!SECRET_PATTERN.test(secret)) return false;
  const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the decoded secret. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt: during a rotation every live secret signs, space-separated. */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestampSeconds, body)).join(' '),
  };
}
