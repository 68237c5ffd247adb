import pg from 'pg';
import { decide, type ChangeKind, type ChangeRequest, type ChangeState } from '../../domain/changes.js';
import { RECENT_VALIDATIONS_MS } from '../../domain/decisions/checkin.js';
import { StaleDecisionError, type Write } from '../../domain/writes.js';
import { memberLockKey } from '../member-lock.js';
import {
  CANCELLATION_STATE,
  CODE_STATE,
  CREATION_STATE,
  VALIDATION_STATE,
  beginAndLock,
  toCancellationState,
  toCodeState,
  toCreationState,
  toValidationState,
  type CancellationStateRow,
  type CodeStateRow,
  type CreationStateRow,
  type ValidationStateRow,
} from './postgres-change-statements.js';
import { writeBatch } from './postgres-write-batch.js';

/** One change of a batch, with the member·gym it locks (a cancellation's is looked up before it is queued). */
export interface BatchItem<K extends ChangeKind = ChangeKind> {
  readonly kind: K;
  readonly request: ChangeRequest<K>;
  readonly member: { readonly gymId: number; readonly platformId: string };
}

/** A change's own answer: its outcome, or the refusal its decision (or its reading) made. */
export type ItemResult =
  { readonly ok: true; readonly outcome: unknown } | { readonly ok: false; readonly error: unknown };

export type BatchResult =
  | { readonly ok: true; readonly results: ItemResult[] }
  /** `retry`: nothing of the batch was kept, and each request run alone may succeed where the batch did not. */
  | { readonly ok: false; readonly error: unknown; readonly retry: boolean };

/** The server refused a statement and rolled the transaction back; the connection itself is sound. */
function refusedByServer(error: unknown): boolean {
  return (
    error instanceof StaleDecisionError ||
    (error instanceof pg.DatabaseError && !/^(08|57P)/.test(error.code ?? ''))
  );
}

type States = Map<number, unknown>;

/** Reads the state of every item of one kind with that kind's statement, by the items' places in the batch. */
async function readKind(
  client: pg.PoolClient,
  items: readonly BatchItem[],
  kind: ChangeKind,
  states: States,
) {
  const places = items.flatMap((item, place) => (item.kind === kind ? [place] : []));
  if (places.length === 0) return;
  const requests = places.map((place) => items[place]?.request) as ChangeRequest<ChangeKind>[];
  const column = <T>(pick: (request: never) => T) => requests.map((request) => pick(request as never));
  const query = (name: string, text: string, values: unknown[]) => client.query({ name, text, values });
  let rows: unknown[];
  let toState: (row: never, index: number) => unknown;
  if (kind === 'validate') {
    ({ rows } = await query('gatehouse_validation_state', VALIDATION_STATE, [
      column((r: ChangeRequest<'validate'>) => r.gymId),
      column((r: ChangeRequest<'validate'>) => r.platformId),
      column((r: ChangeRequest<'validate'>) => r.customCode !== undefined),
    ]));
    toState = (row: ValidationStateRow) => toValidationState(row);
  } else if (kind === 'create-checkin') {
    ({ rows } = await query('gatehouse_creation_state', CREATION_STATE, [
      column((r: ChangeRequest<'create-checkin'>) => r.gymId),
      column((r: ChangeRequest<'create-checkin'>) => r.platformId),
      column((r: ChangeRequest<'create-checkin'>) => r.productId),
      column((r: ChangeRequest<'create-checkin'>) => r.now - RECENT_VALIDATIONS_MS),
      column((r: ChangeRequest<'create-checkin'>) => r.now + RECENT_VALIDATIONS_MS),
    ]));
    toState = (row: CreationStateRow) => toCreationState(row);
  } else if (kind === 'cancel-checkin') {
    ({ rows } = await query('gatehouse_cancellation_state', CANCELLATION_STATE, [
      column((r: ChangeRequest<'cancel-checkin'>) => r.checkinId),
    ]));
    toState = (row: CancellationStateRow) => toCancellationState(row);
  } else {
    ({ rows } = await query('gatehouse_code_state', CODE_STATE, [
      column((r: ChangeRequest<'create-code'>) => r.gymId),
      column((r: ChangeRequest<'create-code'>) => r.platformId),
    ]));
    toState = (row: CodeStateRow, index) => toCodeState(requests[index] as ChangeRequest<'create-code'>, row);
  }
  if (rows.length !== places.length) throw new Error(`the batched ${kind} lost a request`);
  places.forEach((place, index) => {
    try {
      states.set(place, { state: toState(rows[index] as never, index) });
    } catch (error) {
      states.set(place, { error });
    }
  });
}

/** The kinds whose reads differ: code writes share one. */
const READS: ChangeKind[] = ['validate', 'create-checkin', 'cancel-checkin', 'create-code'];

function decideOne<K extends ChangeKind>(kind: K, request: ChangeRequest<K>, state: ChangeState<K>) {
  return decide[kind](request, state);
}

/** Reads every item's state, lets the domain decide each, and writes all their writes in one statement. */
async function changeAll(client: pg.PoolClient, items: readonly BatchItem[]): Promise<ItemResult[]> {
  const states: States = new Map();
  const normalised = items.map((item) =>
    item.kind === 'update-code' || item.kind === 'delete-code'
      ? { ...item, kind: 'create-code' as const }
      : item,
  );
  for (const kind of READS) await readKind(client, normalised, kind, states);
  const writes: Write[] = [];
  const results = items.map((item, place): ItemResult => {
    const read = states.get(place) as { state?: unknown; error?: unknown } | undefined;
    if (read === undefined) return { ok: false, error: new Error('the batch lost a request') };
    if (!('state' in read)) return { ok: false, error: read.error };
    try {
      const decision = decideOne(item.kind, item.request, read.state as ChangeState<ChangeKind>);
      writes.push(...decision.writes);
      return { ok: true, outcome: decision.outcome };
    } catch (error) {
      return { ok: false, error };
    }
  });
  await writeBatch(client, writes);
  return results;
}

/**
 * One batch in one transaction on one pooled connection: BEGIN with the members' advisory locks, one read per
 * kind of change it holds, the writes, COMMIT. The outcomes are returned only once the commit has succeeded.
 */
export async function runBatch(
  pool: pg.Pool,
  items: readonly BatchItem[],
  isUnavailable: (error: unknown) => boolean,
): Promise<BatchResult> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return { ok: false, error, retry: !isUnavailable(error) };
  }
  let committing = false;
  let results: ItemResult[];
  try {
    await client.query(
      beginAndLock(client, [...new Set(items.map((item) => memberLockKey(item.member)))].sort()),
    );
    results = await changeAll(client, items);
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
  return { ok: true, results };
}
