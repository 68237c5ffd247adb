import { ConflictError, InputError, RoleForbiddenError } from './errors.js';
import { isRole, mayGrant, ROLES, type Operator, type OperatorPrincipal, type Role } from './operator.js';

/** A disabled operator's role is not changed: its token is refused anyway. */
export class OperatorDisabledError extends ConflictError {
  constructor() {
    super('operator.revoked', 'a disabled operator keeps its role: create the operator again');
  }
}

/** No operator changes its own role: the last admin could not undo it. */
export class OwnRoleError extends ConflictError {
  constructor() {
    super('operator.self', 'an operator may not change its own role');
  }
}

/**
 * Whether `issuer` may give `target` the role asked, and what changes: the new role, or undefined when it holds it
 * already (nothing to write). The issuer must be able to grant both the role it takes away and the one it gives;
 * a disabled operator keeps its last role; and no operator changes its own (the last admin could not undo it).
 */
export function decideRoleChange(
  issuer: OperatorPrincipal,
  target: Operator,
  asked: string,
): Role | undefined {
  if (!isRole(asked)) throw new InputError('role', `must be one of ${ROLES.join(', ')}`);
  for (const role of [target.role, asked]) {
    if (!mayGrant(issuer.role, role)) throw new RoleForbiddenError(issuer.role, `grant the ${role} role`);
  }
  if (target.revokedAt !== null) throw new OperatorDisabledError();
  if (issuer.operator?.id === target.id) throw new OwnRoleError();
  return asked === target.role ? undefined : asked;
}
