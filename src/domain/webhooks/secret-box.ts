import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest: AES-256-GCM under a key derived from GATEHOUSE_SECRET_KEY when it is set, as given
 * otherwise. A sealed value starts `enc:v1:`, so values stored before the key was set still read as they are.
 */
const SEALED = 'enc:v1:';

export class SecretKeyMissingError extends Error {
  constructor() {
    super('a webhook secret is encrypted but GATEHOUSE_SECRET_KEY is not set');
  }
}

export interface SecretBox {
  seal(secret: string): string;
  open(stored: string): string;
}

export function createSecretBox(secretKey: string | undefined): SecretBox {
  const key = secretKey === undefined ? undefined : createHash('sha256').update(secretKey).digest();
  return {
    seal(secret) {
      if (key === undefined) return secret;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'));
      return `${SEALED}${parts.join(':')}`;
    },
    open(stored) {
      if (!stored.startsWith(SEALED)) return stored;
      if (key === undefined) throw new SecretKeyMissingError();
      const [iv, tag, sealed] = stored
        .slice(SEALED.length)
        .split(':')
        .map((part) => Buffer.from(part, 'base64url'));
      if (iv === undefined || tag === undefined || sealed === undefined) throw new Error('malformed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    },
  };
}
