import { describe, expect, test } from 'vitest';
import { InputError, RoleForbiddenError } from './errors.js';
import type { Operator, OperatorPrincipal } from './operator.js';
import { decideRoleChange, OperatorDisabledError, OwnRoleError } from './operator-role-change.js';

const operator = (overrides: Partial<Operator> = {}): Operator => ({
  id: 7,
  name: 'ana',
  role: 'support',
  prefix: 'gho_00000000',
  expiresAt: null,
  revokedAt: null,
  createdBy: 'operator',
  createdAt: 0,
  ...overrides,
});
const ADMIN: OperatorPrincipal = { role: 'admin' };

describe('decideRoleChange', () => {
  test('when an admin asks another role, then that role is the change', () => {
    expect(decideRoleChange(ADMIN, operator(), 'finance')).toBe('finance');
  });

  test('when the operator holds the role already, then there is nothing to write', () => {
    expect(decideRoleChange(ADMIN, operator(), 'support')).toBeUndefined();
  });

  test('when the role is unknown, then an input error names the roles', () => {
    expect(() => decideRoleChange(ADMIN, operator(), 'owner')).toThrow(
      new InputError('role', 'must be one of admin, finance, support, member-app, readonly'),
    );
  });

  test('when the issuer could not grant the role taken away or the one given, then the role is refused', () => {
    const support: OperatorPrincipal = { role: 'support' };
    expect(() => decideRoleChange(support, operator({ role: 'admin' }), 'readonly')).toThrow(
      RoleForbiddenError,
    );
    expect(() => decideRoleChange(support, operator({ role: 'readonly' }), 'admin')).toThrow(
      RoleForbiddenError,
    );
  });

  test('when the operator is disabled, or is the issuer, then it is a conflict', () => {
    expect(() => decideRoleChange(ADMIN, operator({ revokedAt: 1 }), 'finance')).toThrow(
      OperatorDisabledError,
    );
    const self = operator({ role: 'admin' });
    expect(() => decideRoleChange({ role: 'admin', operator: self }, self, 'readonly')).toThrow(OwnRoleError);
  });
});
