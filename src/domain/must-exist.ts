import { EntityNotFoundError } from './errors.js';

/** The record read by its id, or `<entity>.not-found` when there is none: how every lookup by id answers a miss. */
export function mustExist<T>(record: T | undefined, entity: string): T {
  if (record === undefined) throw new EntityNotFoundError(entity);
  return record;
}
