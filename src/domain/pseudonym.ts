import { createHmac } from 'node:crypto';

/** What an erased member's platform_id becomes: never 13 digits, so it can be no member's id. */
export const PSEUDONYM_PATTERN = '^erased-[0-9a-f]{16}$';

/**
 * An erased member's stable pseudonym: `erased-` and 16 lowercase hex digits of an HMAC-SHA256 of the platform_id
 * under the server's own secret. Stable (erasing twice names the same rows), not reversible without the secret
 * (13 digits are too few to hide behind a plain hash).
 */
export function pseudonymOf(secret: string, platformId: string): string {
  return `erased-${createHmac('sha256', secret).update(platformId, 'utf8').digest('hex').slice(0, 16)}`;
}
