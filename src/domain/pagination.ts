import { InputError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  /** Only rows with a greater id (lists are ordered by ascending id). */
  readonly afterId: number;
  readonly limit: number;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** Cursors are opaque to clients: the last id seen, encoded. */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`after:${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^after:([0-9]{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match?.[1] === undefined) throw new InputError('cursor', 'is not a cursor this API returned');
  return Number(match[1]);
}

export function pageRequest(query: { limit?: string; cursor?: string }): PageRequest {
  const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InputError('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return { afterId: decodeCursor(query.cursor), limit };
}

/** Repositories fetch limit + 1 rows: the extra one only tells whether there is a next page. */
export function toPage<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.id) : null };
}
