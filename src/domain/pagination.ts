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

/** A list's `limit`: 1 to MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE when absent. */
export function pageLimit(limit: string | undefined): number {
  const value = limit === undefined ? DEFAULT_PAGE_SIZE : Number(limit);
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw new InputError('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return value;
}

export function pageRequest(query: { limit?: string; cursor?: string }): PageRequest {
  return { afterId: decodeCursor(query.cursor), limit: pageLimit(query.limit) };
}

/** Repositories fetch limit + 1 rows: the extra one only tells whether there is a next page. */
export function toPage<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.id) : null };
}

/**
 * Where a reader of the partner feed stands: the commit order and id of the last row it has seen. Following it never
 * skips a row, even one that commits after rows already read (src/store/commit-horizon.ts).
 */
export interface FeedPosition {
  readonly commitOrder: number;
  readonly id: number;
}

export const FEED_START: FeedPosition = { commitOrder: 0, id: 0 };

export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(`at:${position.commitOrder}:${position.id}`, 'utf8').toString('base64url');
}

/** A feed cursor; a plain list cursor (`after:<id>`, from before the feed had its own) reads as commit order 0. */
export function decodeFeedCursor(cursor: string | undefined): FeedPosition {
  if (cursor === undefined) return FEED_START;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^at:([0-9]{1,16}):([0-9]{1,15})$/.exec(text);
  if (match?.[1] !== undefined && match[2] !== undefined && Number.isSafeInteger(Number(match[1]))) {
    return { commitOrder: Number(match[1]), id: Number(match[2]) };
  }
  return { commitOrder: 0, id: decodeCursor(cursor) };
}

/** A feed page: `nextCursor` is always given (the last one too), so a reader can come back for what follows. */
export interface FeedPage<T> {
  readonly items: T[];
  readonly nextCursor: string;
  readonly hasMore: boolean;
}

export function toFeedPage<T extends FeedPosition>(
  rows: T[],
  limit: number,
  from: FeedPosition,
): FeedPage<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1) ?? from;
  return {
    items,
    nextCursor: encodeFeedCursor({ commitOrder: last.commitOrder, id: last.id }),
    hasMore: rows.length > limit,
  };
}
