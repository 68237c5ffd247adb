import {
  decide,
  type BatchedChangeKind,
  type ChangeRequest,
  type ChangeState,
} from '../../../domain/changes.js';
import { RECENT_VALIDATIONS_MS } from '../../../domain/decisions/checkin.js';
import { USAGE_LOOKBACK_MS } from '../../../domain/plans/admission.js';
import { MARKS_LOOKBACK_MS } from '../../plans/payout-counter-repository.js';
import type { Decision } from '../../../domain/writes.js';
import type { BatchItem } from './postgres-batch-item.js';
import {
  CANCELLATION_STATE,
  CODE_STATE,
  CREATION_STATE,
  VALIDATION_STATE,
  toCancellationState,
  toCodeState,
  toCreationState,
  toValidationState,
  type CancellationStateRow,
  type CodeStateRow,
  type CreationStateRow,
  type ValidationStateRow,
} from './postgres-change-statements.js';
import { jsonRows } from './postgres-json-rows.js';
import type { Step } from './postgres-pipeline.js';
import type { BatchCounts } from './postgres-batch-counts.js';

/** A prepared read statement; the kinds whose reads are the same share one, and one parameter. */
interface ReadStatement {
  readonly name: string;
  readonly text: string;
}

/** How one kind of change reads: its statement, its request as a row of the statement's parameter, its state. */
interface PgReader<K extends BatchedChangeKind> {
  readonly statement: ReadStatement;
  readonly parameter: (request: ChangeRequest<K>) => object;
  readonly toState: (row: unknown, request: ChangeRequest<K>, counts: BatchCounts) => ChangeState<K>;
}

/** A reader whose statement returns rows of type R: the server's rows are typed here, once. */
function reader<K extends BatchedChangeKind, R>(definition: {
  readonly statement: ReadStatement;
  readonly parameter: (request: ChangeRequest<K>) => object;
  readonly toState: (row: R, request: ChangeRequest<K>, counts: BatchCounts) => ChangeState<K>;
}): PgReader<K> {
  return { ...definition, toState: (row, request, counts) => definition.toState(row as R, request, counts) };
}

/** Custom-code writes read the same, with one statement: the member's code at the gym and the gym's partner. */
const CODE_READ: ReadStatement = { name: 'gatehouse_batch_code_state', text: CODE_STATE };
const codeReader = <K extends 'create-code' | 'update-code' | 'delete-code'>() =>
  reader<K, CodeStateRow>({
    statement: CODE_READ,
    parameter: (r) => ({ gym_id: r.gymId, platform_id: r.platformId }),
    toState: (row, request) => toCodeState(request, row),
  });

/** Every batched kind's reader, keyed by kind: a kind without one is a type error. */
const PG_READERS: { readonly [K in BatchedChangeKind]: PgReader<K> } = {
  validate: reader<'validate', ValidationStateRow>({
    statement: { name: 'gatehouse_batch_validation_state', text: VALIDATION_STATE },
    parameter: (r) => ({
      gym_id: r.gymId,
      platform_id: r.platformId,
      wants_code: r.customCode !== undefined,
      now: r.now,
      priced: r.pricing !== undefined,
      partner_id: r.pricing?.partnerId ?? null,
      month: r.pricing?.month ?? null,
      scope: r.pricing?.scope ?? null,
      marks_since: r.now - MARKS_LOOKBACK_MS,
    }),
    toState: toValidationState,
  }),
  'create-checkin': reader<'create-checkin', CreationStateRow>({
    statement: { name: 'gatehouse_batch_creation_state', text: CREATION_STATE },
    parameter: (r) => ({
      gym_id: r.gymId,
      platform_id: r.platformId,
      product_id: r.productId,
      since: r.now - RECENT_VALIDATIONS_MS,
      until: r.now + RECENT_VALIDATIONS_MS,
      now: r.now,
      usage_since: r.now - USAGE_LOOKBACK_MS,
      plans: r.plans,
      default_plan: r.defaultPlan ?? null,
    }),
    toState: toCreationState,
  }),
  'cancel-checkin': reader<'cancel-checkin', CancellationStateRow>({
    statement: { name: 'gatehouse_batch_cancellation_state', text: CANCELLATION_STATE },
    parameter: (r) => ({ id: r.checkinId }),
    toState: toCancellationState,
  }),
  'create-code': codeReader(),
  'update-code': codeReader(),
  'delete-code': codeReader(),
};

/** The read statements in one stable order, each sent once per batch that needs it. */
const STATEMENTS = [...new Set(Object.values(PG_READERS).map((r) => r.statement))];

/** One change of the batch, planned: the statement it reads with, its parameter row, and its decision. */
export interface PlannedChange {
  readonly statement: ReadStatement;
  readonly parameter: object;
  /**
   * Decides the change from its row and what the batch's earlier decisions counted; throws the refusal its reading
   * or its decision made.
   */
  readonly decide: (row: unknown, counts: BatchCounts) => Decision<unknown>;
}

function plan<K extends BatchedChangeKind>(kind: K, request: ChangeRequest<K>): PlannedChange {
  const read: PgReader<K> = PG_READERS[kind];
  return {
    statement: read.statement,
    parameter: read.parameter(request),
    decide: (row, counts) => decide[kind](request, read.toState(row, request, counts)),
  };
}

export function planAll(items: readonly BatchItem[]): PlannedChange[] {
  return items.map((item) => plan(item.kind, item.request));
}

/** The batch's reads, one statement per kind of read it holds, with the places in the batch of its changes. */
export function readsOf(planned: readonly PlannedChange[]) {
  return STATEMENTS.flatMap((statement) => {
    const places = planned.flatMap((p, place) => (p.statement === statement ? [place] : []));
    if (places.length === 0) return [];
    const parameters = places.map((place) => planned[place]?.parameter);
    const step: Step = { name: statement.name, text: statement.text, values: [jsonRows(parameters)] };
    return [{ statement, places, step }];
  });
}

/** Each change's row, by its place in the batch: every statement returns one row per request, in order. */
export function rowsOf(reads: ReturnType<typeof readsOf>, results: readonly unknown[][]): unknown[] {
  const rows: unknown[] = [];
  reads.forEach(({ statement, places }, index) => {
    const got = results[index] ?? [];
    if (got.length !== places.length) throw new Error(`the batched ${statement.name} lost a request`);
    places.forEach((place, i) => (rows[place] = got[i]));
  });
  return rows;
}
