import type { ChangeKind, ChangeRequest } from '../../../domain/changes.js';
import { RECENT_VALIDATIONS_MS } from '../../../domain/decisions/checkin.js';
import type { BatchItem } from './postgres-change-batch.js';
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

/** Each item's state, or the error its reading made, by the item's place in the batch. */
export type States = Map<number, unknown>;
type Row = Record<string, unknown>;

/** How one kind of change reads: its statement, the requests as its parameter, and each row as a state. */
interface Reader {
  readonly step: (requests: never[]) => Step;
  readonly toState: (row: never, request: never) => unknown;
}

const READERS: Record<(typeof READS)[number], Reader> = {
  validate: {
    step: (requests: ChangeRequest<'validate'>[]) => ({
      name: 'gatehouse_batch_validation_state',
      text: VALIDATION_STATE,
      values: [
        jsonRows(
          requests.map((r) => ({
            gym_id: r.gymId,
            platform_id: r.platformId,
            wants_code: r.customCode !== undefined,
          })),
        ),
      ],
    }),
    toState: (row: ValidationStateRow) => toValidationState(row),
  },
  'create-checkin': {
    step: (requests: ChangeRequest<'create-checkin'>[]) => ({
      name: 'gatehouse_batch_creation_state',
      text: CREATION_STATE,
      values: [
        jsonRows(
          requests.map((r) => ({
            gym_id: r.gymId,
            platform_id: r.platformId,
            product_id: r.productId,
            since: r.now - RECENT_VALIDATIONS_MS,
            until: r.now + RECENT_VALIDATIONS_MS,
          })),
        ),
      ],
    }),
    toState: (row: CreationStateRow) => toCreationState(row),
  },
  'cancel-checkin': {
    step: (requests: ChangeRequest<'cancel-checkin'>[]) => ({
      name: 'gatehouse_batch_cancellation_state',
      text: CANCELLATION_STATE,
      values: [jsonRows(requests.map((r) => ({ id: r.checkinId })))],
    }),
    toState: (row: CancellationStateRow) => toCancellationState(row),
  },
  'create-code': {
    step: (requests: ChangeRequest<'create-code'>[]) => ({
      name: 'gatehouse_batch_code_state',
      text: CODE_STATE,
      values: [jsonRows(requests.map((r) => ({ gym_id: r.gymId, platform_id: r.platformId })))],
    }),
    toState: (row: CodeStateRow, request: ChangeRequest<'create-code'>) => toCodeState(request, row),
  },
};

/** The kinds whose reads differ: code writes share one. */
const READS = ['validate', 'create-checkin', 'cancel-checkin', 'create-code'] as const;

/** The batch's reads, one statement per kind it holds, with the items' places in the batch. */
export function readsOf(items: readonly BatchItem[]) {
  return READS.flatMap((kind) => {
    const places = items.flatMap((item, place) => (readKindOf(item.kind) === kind ? [place] : []));
    if (places.length === 0) return [];
    const requests = places.map((place) => items[place]?.request) as never[];
    return [{ kind, places, requests, step: READERS[kind].step(requests) }];
  });
}

function readKindOf(kind: ChangeKind): ChangeKind {
  return kind === 'update-code' || kind === 'delete-code' ? 'create-code' : kind;
}

/** Each item's state (or the error its reading made), by its place in the batch. */
export function statesOf(reads: ReturnType<typeof readsOf>, results: readonly Row[][]): States {
  const states: States = new Map();
  reads.forEach(({ kind, places, requests }, index) => {
    const rows = results[index] ?? [];
    if (rows.length !== places.length) throw new Error(`the batched ${kind} lost a request`);
    places.forEach((place, i) => {
      try {
        states.set(place, { state: READERS[kind].toState(rows[i] as never, requests[i] as never) });
      } catch (error) {
        states.set(place, { error });
      }
    });
  });
  return states;
}
