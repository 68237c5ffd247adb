import type { Checkin, Reversal } from './entities.js';
import {
  decideCheckinCancellation,
  decideCheckinCreation,
  type CancellationState,
  type CheckinCancellation,
  type CheckinCreation,
  type CreationState,
} from './decisions/checkin.js';
import {
  decideCodeCreate,
  decideCodeDelete,
  decideCodeUpdate,
  type CodeRequest,
  type CodeState,
  type CodeWriteRequest,
} from './decisions/custom-code.js';
import {
  decideValidation,
  type ValidationOutcome,
  type ValidationRequest,
  type ValidationState,
} from './decisions/validation.js';
import { decideReversal, type ReversalRequest, type ReversalState } from './decisions/reversal.js';
import type { Decision } from './writes.js';

/** Every state change: what it is asked, what it is decided from, what it answers. */
export interface Changes {
  validate: { request: ValidationRequest; state: ValidationState; outcome: ValidationOutcome };
  'create-checkin': { request: CheckinCreation; state: CreationState; outcome: Checkin };
  'cancel-checkin': { request: CheckinCancellation; state: CancellationState; outcome: Checkin };
  'create-code': { request: CodeWriteRequest; state: CodeState; outcome: void };
  'update-code': { request: CodeWriteRequest; state: CodeState; outcome: void };
  'delete-code': { request: CodeRequest; state: CodeState; outcome: void };
  'reverse-transaction': { request: ReversalRequest; state: ReversalState; outcome: Reversal };
}

export type ChangeKind = keyof Changes;
export type ChangeRequest<K extends ChangeKind> = Changes[K]['request'];
export type ChangeState<K extends ChangeKind> = Changes[K]['state'];
export type ChangeOutcome<K extends ChangeKind> = Changes[K]['outcome'];

/** The one decision of each state change: a pure function of the request (with its `now`) and what was read. */
export const decide: {
  [K in ChangeKind]: (request: ChangeRequest<K>, state: ChangeState<K>) => Decision<ChangeOutcome<K>>;
} = {
  validate: decideValidation,
  'create-checkin': decideCheckinCreation,
  'cancel-checkin': decideCheckinCancellation,
  'create-code': decideCodeCreate,
  'update-code': decideCodeUpdate,
  'delete-code': decideCodeDelete,
  'reverse-transaction': decideReversal,
};

/**
 * The changes the batched paths carry out. A reversal is rare and operator-made: it runs through the query-builder
 * unit of work only, under its transaction's lock.
 */
export type BatchedChangeKind = Exclude<ChangeKind, 'reverse-transaction'>;

export function isBatched(kind: ChangeKind): kind is BatchedChangeKind {
  return kind !== 'reverse-transaction';
}
