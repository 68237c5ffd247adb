import type { Actor } from '../audit.js';
import type { CustomCode } from '../entities.js';
import { CustomCodeExistsError, CustomCodeNotFoundError, EntityNotFoundError } from '../errors.js';
import { customCodeEventData } from '../events.js';
import type { Decision, Write } from '../writes.js';

export interface CodeKey {
  readonly gymId: number;
  readonly platformId: string;
}

export interface CodeRequest extends CodeKey {
  readonly now: number;
  readonly actor: Actor;
}

export interface CodeWriteRequest extends CodeRequest {
  readonly code: string;
}

/** What a code change is decided from, read under the member's lock. */
export interface CodeState {
  readonly existing: CustomCode | undefined;
  /** The gym's partner; undefined when the gym does not exist. */
  readonly partnerId: number | undefined;
}

/** Storing a code: an insert or an update, its event, and (when given an actor) its audit row. */
export function codeWrites(input: {
  key: CodeKey;
  partnerId: number;
  code: string;
  existed: boolean;
  now: number;
  audit: Actor | undefined;
}): Write[] {
  const { key, now } = input;
  const writes: Write[] = [
    {
      kind: input.existed ? 'update-code' : 'insert-code',
      gymId: key.gymId,
      platformId: key.platformId,
      code: input.code,
      at: now,
    },
    {
      kind: 'event',
      event: {
        type: input.existed ? 'custom_code.updated' : 'custom_code.created',
        occurredAt: now,
        partnerId: input.partnerId,
        gymId: key.gymId,
        data: customCodeEventData(key),
      },
    },
  ];
  if (input.audit !== undefined)
    writes.push(auditOf(input.audit, input.existed ? 'update' : 'create', key, now));
  return writes;
}

/** The audit names the member and gym, never the code itself. */
function auditOf(actor: Actor, action: 'create' | 'update' | 'delete', key: CodeKey, at: number): Write {
  return {
    kind: 'audit',
    entry: { actor, action, entity: 'custom-code', entityId: `${key.gymId}:${key.platformId}` },
    at,
  };
}

function partnerOf(state: CodeState): number {
  if (state.partnerId === undefined) throw new EntityNotFoundError('gym');
  return state.partnerId;
}

/** A partner's own write of the code, audited with its key. */
function storeCode(request: CodeWriteRequest, partnerId: number, existed: boolean): Decision<void> {
  const writes = codeWrites({
    key: request,
    partnerId,
    code: request.code,
    existed,
    now: request.now,
    audit: request.actor,
  });
  return { outcome: undefined, writes };
}

/** Create: one code per member·gym; a second create is refused. */
export function decideCodeCreate(request: CodeWriteRequest, state: CodeState): Decision<void> {
  const partnerId = partnerOf(state);
  if (state.existing !== undefined) throw new CustomCodeExistsError();
  return storeCode(request, partnerId, false);
}

/** Update: only an existing code. */
export function decideCodeUpdate(request: CodeWriteRequest, state: CodeState): Decision<void> {
  const partnerId = partnerOf(state);
  if (state.existing === undefined) throw new CustomCodeNotFoundError();
  return storeCode(request, partnerId, true);
}

export function decideCodeDelete(request: CodeRequest, state: CodeState): Decision<void> {
  const partnerId = partnerOf(state);
  if (state.existing === undefined) throw new CustomCodeNotFoundError();
  return {
    outcome: undefined,
    writes: [
      { kind: 'delete-code', gymId: request.gymId, platformId: request.platformId },
      {
        kind: 'event',
        event: {
          type: 'custom_code.deleted',
          occurredAt: request.now,
          partnerId,
          gymId: request.gymId,
          data: customCodeEventData(request),
        },
      },
      auditOf(request.actor, 'delete', request, request.now),
    ],
  };
}
