/** Spec §2.3: `YYYY-MM-DDThh:mm:ssZ`, UTC, second precision. */
export function formatValidatedAt(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19) + 'Z';
}

/** Every other timestamp on the wire: ISO-8601 UTC with milliseconds. */
export function formatInstant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
