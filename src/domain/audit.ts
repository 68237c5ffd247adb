/** Who did something: the operator (admin token, CLI) or a partner's key, named by its non-secret prefix. */
export type Actor = { readonly kind: 'operator' } | { readonly kind: 'key'; readonly prefix: string };

export const OPERATOR: Actor = { kind: 'operator' };

export function actorName(actor: Actor): string {
  return actor.kind === 'operator' ? 'operator' : `key:${actor.prefix}`;
}

export type AuditEntity = 'partner' | 'gym' | 'product' | 'key' | 'checkin' | 'custom-code';
export type AuditAction = 'create' | 'update' | 'delete' | 'issue' | 'revoke' | 'cancel';

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
  readonly action: string;
  readonly entity: string;
  readonly entityId: string;
  readonly at: number;
}
