import type { BatchedChangeKind, ChangeRequest } from '../../../domain/changes.js';

/** One change of a batch, with the member·gym it locks (a cancellation's is looked up before it is queued). */
export interface BatchItem<K extends BatchedChangeKind = BatchedChangeKind> {
  readonly kind: K;
  readonly request: ChangeRequest<K>;
  readonly member: { readonly gymId: number; readonly platformId: string };
}
