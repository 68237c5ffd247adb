/** How much of a receiver's answer each attempt keeps (the sender cuts it there: src/services/webhooks/sender.ts). */
export const ATTEMPT_EXCERPT_BYTES = 1024;

// C0 and C1 controls but tab and line feed, DEL, and the bidirectional overrides that reorder a terminal's line.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A receiver's answer as the delivery log keeps it: each control character written out as `\uXXXX`, so that an
 * answer can neither move a terminal's cursor nor hide text in the console, while what it was stays readable.
 */
export function safeExcerpt(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
