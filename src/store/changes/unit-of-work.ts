import type { Kysely } from 'kysely';
import { decide, type ChangeKind, type ChangeOutcome, type ChangeRequest } from '../../domain/changes.js';
import { StaleDecisionError } from '../../domain/writes.js';
import { readers } from './change-readers.js';
import type { Database } from '../database.js';
import type { Store } from '../store.js';
import { applyWrites } from './write-applier.js';

/** A decision made from a state that changed before its writes is made again, from the new state, this often. */
const ATTEMPTS = 3;

/**
 * A state change through the query builder, in one write transaction: read what the change is decided from
 * (under the member's lock), decide (src/domain/changes.ts), carry out the writes. Every dialect can run any
 * change this way; the hand-tuned batched paths must behave the same, and fall back to it.
 */
export async function runChange<K extends ChangeKind>(
  store: Pick<Store, 'write' | 'serialize' | 'dialect'>,
  kind: K,
  request: ChangeRequest<K>,
): Promise<ChangeOutcome<K>> {
  const postgres = store.dialect === 'postgres';
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await store.write(async (trx: Kysely<Database>) => {
        const state = await readers[kind](
          { trx, postgres, lock: (key) => store.serialize(trx, key) },
          request,
        );
        const decision = decide[kind](request, state);
        await applyWrites(trx, decision.writes);
        return decision.outcome;
      });
    } catch (error) {
      if (!(error instanceof StaleDecisionError) || attempt >= ATTEMPTS) throw error;
    }
  }
}
