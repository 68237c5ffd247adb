/**
 * Rows handed to PostgreSQL as one `json` parameter, read back with `json_to_recordset`: one native
 * JSON.stringify instead of a driver-escaped array literal per column (the driver escapes every element, quotes
 * and backslashes included, in JavaScript).
 *
 * A JavaScript string may hold a lone surrogate. Sent as text, the driver's UTF-8 encoding stores it as U+FFFD;
 * JSON.stringify writes it as a `\udXXX` escape, which PostgreSQL refuses to decode. So the rare text that holds
 * such an escape (or anything that looks like one) is encoded again with every string made well-formed first, as
 * the driver would have sent it: the stored text is the same either way.
 */
export function jsonRows(rows: readonly unknown[]): string {
  const json = JSON.stringify(rows);
  return SURROGATE_ESCAPE.test(json) ? JSON.stringify(rows, wellFormed) : json;
}

const SURROGATE_ESCAPE = /\\ud[89a-f]/i;

function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : value;
}
