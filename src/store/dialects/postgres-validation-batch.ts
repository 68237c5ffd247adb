import pg from 'pg';
import { classifyCheckin } from '../../domain/checkin-condition.js';
import { memberLockKey, type ValidationOutcome, type ValidationRequest } from '../validation-unit.js';
import {
  LATEST_AGAIN,
  LOCK_MEMBERS,
  VALIDATE_BATCH,
  type BatchRow,
  type LatestAgainRow,
} from './postgres-validation-statements.js';

export type BatchResult =
  | { readonly ok: true; readonly outcomes: ValidationOutcome[] }
  /** `retry`: nothing of the batch was kept, and each request run alone may succeed where the batch did not. */
  | { readonly ok: false; readonly error: unknown; readonly retry: boolean };

/** The server refused a statement and rolled the transaction back; the connection itself is sound. */
function refusedByServer(error: unknown): boolean {
  return error instanceof pg.DatabaseError && !/^(08|57P)/.test(error.code ?? '');
}

/** What runValidation would answer from the check-in as read; undefined when the update found it changed. */
function outcomeOf(row: BatchRow, request: ValidationRequest): ValidationOutcome | undefined {
  const checkin = row.status === null ? undefined : { status: row.status, expiresAt: row.expires_at ?? 0 };
  const condition = classifyCheckin(checkin, request.now);
  if (condition !== 'valid') return { condition };
  if (!row.validated) return undefined;
  return {
    condition: 'valid',
    productId: row.product_id ?? 0,
    productDescription: row.description ?? '',
    validatedAt: request.now,
  };
}

/** Classifies, flips, records and upserts for the whole batch; the caller holds its locks and commits. */
async function validateAll(
  client: pg.PoolClient,
  requests: ValidationRequest[],
): Promise<ValidationOutcome[]> {
  const gymIds = requests.map((request) => request.gymId);
  const platformIds = requests.map((request) => request.platformId);
  const { rows } = await client.query<BatchRow>({
    name: 'gatehouse_validate_batch',
    text: VALIDATE_BATCH,
    values: [gymIds, platformIds, requests.map((r) => r.customCode ?? null), requests.map((r) => r.now)],
  });
  if (rows.length !== requests.length) throw new Error('the batched validation lost a request');
  const outcomes = requests.map((request, index) => outcomeOf(rows[index] as BatchRow, request));
  const raced = outcomes.flatMap((outcome, index) => (outcome === undefined ? [index] : []));
  if (raced.length === 0) return outcomes as ValidationOutcome[];

  // As runValidation: the check-in it saw valid changed before the update (a cancel); read it again.
  const again = await client.query<LatestAgainRow>(LATEST_AGAIN, [
    raced.map((index) => gymIds[index]),
    raced.map((index) => platformIds[index]),
  ]);
  raced.forEach((index, at) => {
    const row = again.rows[at];
    const checkin = row?.status == null ? undefined : { status: row.status, expiresAt: row.expires_at ?? 0 };
    const condition = classifyCheckin(checkin, requests[index]?.now ?? 0);
    outcomes[index] = { condition: condition === 'valid' ? 'already-validated' : condition };
  });
  return outcomes as ValidationOutcome[];
}

/**
 * One batch in one transaction on one pooled connection: BEGIN, the members' advisory locks, the batch
 * statement, COMMIT. The outcomes are returned only once the commit has succeeded.
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
    await client.query('begin');
    const members = [...new Set(requests.map(memberLockKey))].sort();
    await client.query({ name: 'gatehouse_lock_members', text: LOCK_MEMBERS, values: [members] });
    outcomes = await validateAll(client, requests);
    committing = true;
    await client.query('commit');
  } catch (error) {
    if (refusedByServer(error)) {
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
