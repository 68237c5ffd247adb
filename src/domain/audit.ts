/**
 * Who did something: the operator (an environment admin token, the CLI), a named operator (by its id, and its
 * name at the time: a revoked operator's name may be reused), a partner's key, named by its non-secret prefix, or
 * gatehouse itself acting on a rule.
 */
export type Actor =
  | { readonly kind: 'operator'; readonly name?: string; readonly id?: number }
  | { readonly kind: 'key'; readonly prefix: string }
  | { readonly kind: 'system' };

export const OPERATOR: Actor = { kind: 'operator' };
/** gatehouse itself, acting on a rule (an endpoint disabled after a 410 or days of failures). */
export const SYSTEM: Actor = { kind: 'system' };

export function actorName(actor: Actor): string {
  if (actor.kind === 'key') return `key:${actor.prefix}`;
  if (actor.kind === 'system') return 'system';
  return actor.name === undefined ? 'operator' : `operator:${actor.name}`;
}

/** A named operator's id, which tells two operators of one name apart; null for every other actor. */
export function actorId(actor: Actor): number | null {
  return actor.kind === 'operator' ? (actor.id ?? null) : null;
}

export const AUDIT_ENTITIES = [
  'partner',
  'gym',
  'product',
  'key',
  'checkin',
  'custom-code',
  'operator',
  'member',
  'webhook',
  'transaction',
  'settlement',
  'plan',
  'payout-rules',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
/** `read`: a look at secrets-adjacent data (a member's custom code); `erase`: a member's data erased. */
export type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'issue'
  | 'revoke'
  | 'cancel'
  | 'read'
  | 'erase'
  | 'rotate'
  | 'enable'
  | 'disable'
  | 'retry'
  | 'recover'
  | 'reverse'
  | 'close'
  | 'pay'
  | 'retire'
  | 'offboard';

/** One audited change. Never a secret or a code value: only what changed and which record. */
export interface AuditEvent {
  readonly actor: Actor;
  readonly action: AuditAction;
  readonly entity: AuditEntity;
  readonly entityId: string | number;
}

export interface AuditEntry {
  readonly id: number;
  readonly actor: string;
  readonly actorId: number | null;
  readonly action: string;
  readonly entity: string;
  readonly entityId: string;
  readonly at: number;
}
