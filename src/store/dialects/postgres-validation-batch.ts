import pg from 'pg';
import {
  decideValidation,
  type ValidationOutcome,
  type ValidationRequest,
} from '../../domain/decisions/validation.js';
import { StaleDecisionError, type Write } from '../../domain/writes.js';
import { memberLockKey } from '../member-lock.js';
import {
  VALIDATION_STATE,
  beginAndLock,
  toValidationState,
  type ValidationStateRow,
} from './postgres-validation-statements.js';
import { writeBatch } from './postgres-write-batch.js';

export type BatchResult =
  | { readonly ok: true; readonly outcomes: ValidationOutcome[] }
  /** `retry`: nothing of the batch was kept, and each request run alone may succeed where the batch did not. */
  | { readonly ok: false; readonly error: unknown; readonly retry: boolean };

/** The server refused a statement and rolled the transaction back; the connection itself is sound. */
function refusedByServer(error: unknown): boolean {
  return (
    error instanceof StaleDecisionError ||
    (error instanceof pg.DatabaseError && !/^(08|57P)/.test(error.code ?? ''))
  );
}

/** Reads every request's state, lets the domain decide each, and writes all their writes in one statement. */
async function validateAll(
  client: pg.PoolClient,
  requests: ValidationRequest[],
): Promise<ValidationOutcome[]> {
  const { rows } = await client.query<ValidationStateRow>({
    name: 'gatehouse_validation_state',
    text: VALIDATION_STATE,
    values: [
      requests.map((request) => request.gymId),
      requests.map((request) => request.platformId),
      requests.map((request) => request.customCode !== undefined),
    ],
  });
  if (rows.length !== requests.length) throw new Error('the batched validation lost a request');
  const writes: Write[] = [];
  const outcomes = requests.map((request, index) => {
    const decision = decideValidation(request, toValidationState(rows[index] as ValidationStateRow));
    writes.push(...decision.writes);
    return decision.outcome;
  });
  await writeBatch(client, writes);
  return outcomes;
}

/**
 * One batch in one transaction on one pooled connection: BEGIN with the members' advisory locks, the reads, the
 * writes, COMMIT — four round trips. The outcomes are returned only once the commit has succeeded.
 */
export async function runBatch(
  pool: pg.Pool,
  requests: ValidationRequest[],
  isUnavailable: (error: unknown) => boolean,
): Promise<BatchResult> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return { ok: false, error, retry: !isUnavailable(error) };
  }
  let committing = false;
  let outcomes: ValidationOutcome[];
  try {
    await client.query(beginAndLock(client, [...new Set(requests.map(memberLockKey))].sort()));
    outcomes = await validateAll(client, requests);
    committing = true;
    await client.query('commit');
  } catch (error) {
    if (!committing && refusedByServer(error)) {
      // Nothing of the batch was kept: every request may run again on its own.
      await client.query('rollback').then(
        () => client.release(),
        (rollbackError: Error) => client.release(rollbackError),
      );
      return { ok: false, error, retry: true };
    }
    // The connection broke (or the client gave up on it): drop it, which rolls back whatever was not committed.
    // Once COMMIT was sent the outcome is unknown, and a retry could tell the request that did validate its
    // check-in that it was already validated; an unavailable store would only fail every retry again, later.
    client.release(true);
    return { ok: false, error, retry: !committing && !isUnavailable(error) };
  }
  client.release();
  return { ok: true, outcomes };
}
