import { hash, randomBytes } from 'node:crypto';
import type { MemberDetailsView } from './member-details.js';

/** What an operator may be: one role each, granted when its token is issued. */
export const ROLES = ['admin', 'finance', 'support', 'member-app', 'readonly'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a route does, as far as roles are concerned. Every operator route declares one
 * (src/operator-api/permissions.ts); a role holds a set of them.
 */
export const PERMISSIONS = [
  'self',
  'read',
  'read-secret',
  'catalog',
  'keys',
  'checkins',
  'money',
  'webhooks',
  'members',
  'operators',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** How a refusal names what the role may not do: "the readonly role may not <this>". */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  self: 'say who it is',
  read: 'read the operator API',
  'read-secret': "read members' custom codes",
  catalog: 'change partners, gyms or products',
  keys: 'issue or revoke API keys',
  checkins: 'create or cancel check-ins',
  money: 'act on money (reversals, settlements, payouts)',
  webhooks: 'change webhooks',
  members: "erase a member's data",
  operators: 'manage operators',
};

/**
 * The role matrix. `admin` does everything; `finance` and `support` read everything and act on their own side;
 * `member-app` does only what the member app needs; `readonly` reads everything but secrets. Every role may ask
 * who it is (`self`).
 */
export const GRANTS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(PERMISSIONS),
  finance: new Set<Permission>(['self', 'read', 'read-secret', 'money']),
  support: new Set<Permission>([
    'self',
    'read',
    'read-secret',
    'catalog',
    'keys',
    'webhooks',
    'checkins',
    'members',
  ]),
  'member-app': new Set<Permission>(['self', 'checkins', 'read-secret']),
  readonly: new Set<Permission>(['self', 'read']),
};

/** The roles that see members' names, e-mails and phones in full; the others see them masked. */
const MEMBER_DETAILS_IN_FULL: ReadonlySet<Role> = new Set<Role>(['admin', 'support', 'member-app']);

export function memberDetailsViewOf(role: Role): MemberDetailsView {
  return MEMBER_DETAILS_IN_FULL.has(role) ? 'full' : 'masked';
}

export function roleMay(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

/** A role no wider than the issuer's: every permission it holds, the issuer holds too. */
export function mayGrant(issuer: Role, role: Role): boolean {
  return [...GRANTS[role]].every((permission) => GRANTS[issuer].has(permission));
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** An operator's name, as the audit log shows it (`operator:<name>`): a login or an e-mail address. */
export const OPERATOR_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$';
export const OPERATOR_NAME_MESSAGE =
  'must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit';

export interface Operator {
  readonly id: number;
  readonly name: string;
  readonly role: Role;
  /** `gho_` and 8 hex digits: recognisable, not secret. */
  readonly prefix: string;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  /** Who issued it: `operator` (the environment's tokens, the CLI) or `operator:<name>`. */
  readonly createdBy: string;
  readonly createdAt: number;
}

/** Who is calling the operator API: an operator identity, or one of the environment's bootstrap admin tokens. */
export interface OperatorPrincipal {
  readonly role: Role;
  /** Absent for the environment's tokens. */
  readonly operator?: Operator;
}

export function isLive(operator: Operator, now: number): boolean {
  return operator.revokedAt === null && (operator.expiresAt === null || now < operator.expiresAt);
}

/** Tokens look like `gho_<8 hex>_<40 hex>`, stored only as their SHA-256. */
export function generateOperatorToken(): { secret: string; prefix: string; hash: string } {
  const prefix = `gho_${randomBytes(4).toString('hex')}`;
  const secret = `${prefix}_${randomBytes(20).toString('hex')}`;
  return { secret, prefix, hash: hashOperatorToken(secret) };
}

export function hashOperatorToken(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export const OPERATOR_TOKEN_PATTERN = /^gho_[0-9a-f]{8}_[0-9a-f]{40}$/;
