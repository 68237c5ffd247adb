import { InputError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** A list's order by id: oldest first (every list's default, as documented), or newest first where a list offers it. */
export type PageOrder = 'asc' | 'desc';

export interface PageRequest {
  /**
   * Where the page starts: oldest first, the rows with a greater id; newest first (`order: 'desc'`), the rows with a
   * smaller id, 0 meaning from the newest.
   */
  readonly afterId: number;
  readonly limit: number;
  readonly order?: PageOrder;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** Cursors are opaque to clients: the last id seen, encoded, with the order it was seen in. */
export function encodeCursor(lastId: number, order: PageOrder = 'asc'): string {
  return Buffer.from(`${order === 'desc' ? 'before' : 'after'}:${lastId}`, 'utf8').toString('base64url');
}

/** The last id a cursor saw; a cursor of the other order is not one this list returned. */
export function decodeCursor(cursor: string | undefined, order: PageOrder = 'asc'): number {
  if (cursor === undefined) return 0;
  const pattern = order === 'desc' ? /^before:([0-9]{1,15})$/ : /^after:([0-9]{1,15})$/;
  const match = pattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
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

export function pageRequest(query: { limit?: string; cursor?: string; order?: PageOrder }): PageRequest {
  const order = query.order ?? 'asc';
  return {
    afterId: decodeCursor(query.cursor, order),
    limit: pageLimit(query.limit),
    ...(order === 'desc' ? { order } : {}),
  };
}

/** Repositories fetch limit + 1 rows: the extra one only tells whether there is a next page. */
export function toPage<T extends { id: number }>(
  rows: T[],
  limit: number,
  order: PageOrder = 'asc',
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.id, order) : null,
  };
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
