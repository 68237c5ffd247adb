import { mustExist } from '../domain/must-exist.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { AppError, InputError, RoleForbiddenError } from '../domain/errors.js';
import {
  generateOperatorToken,
  hashOperatorToken,
  isLive,
  isRole,
  mayGrant,
  OPERATOR_NAME_MESSAGE,
  OPERATOR_NAME_PATTERN,
  OPERATOR_TOKEN_PATTERN,
  ROLES,
  type Operator,
  type OperatorPrincipal,
  type Role,
} from '../domain/operator.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import { recordAudit } from '../store/access/audit-repository.js';
import {
  anyLiveOperator,
  findLiveOperatorByName,
  findOperator,
  findOperatorByHash,
  insertOperator,
  listOperators,
  revokeOperator,
  setOperatorRole,
} from '../store/access/operator-repository.js';
import { decideRoleChange } from '../domain/operator-role-change.js';
import type { ServiceDependencies } from './dependencies.js';

export interface NewOperator {
  readonly name: string;
  readonly role: string;
  readonly expiresAt?: number | null;
}

export interface IssuedOperator {
  readonly operator: Operator;
  /** The token, shown once: only its hash is stored. */
  readonly token: string;
}

/** The environment's admin tokens and the CLI: the bootstrap admin, named `operator` in the audit log. */
export const BOOTSTRAP_ADMIN: OperatorPrincipal = { role: 'admin' };

const NAME = new RegExp(OPERATOR_NAME_PATTERN);

/** How the audit log names a caller of the operator API. */
export function actorOf(principal: OperatorPrincipal): Actor {
  const named = principal.operator;
  return named === undefined ? OPERATOR : { kind: 'operator', name: named.name, id: named.id };
}

/**
 * Checks what an issuer asks for: a known role no wider than its own, and an expiry in the future that does not
 * outlive the issuer's own token (a token never grants more than its issuer holds, in rights or in time).
 */
function grantedExpiry(issuer: OperatorPrincipal, input: NewOperator, now: number): number | null {
  if (!isRole(input.role)) throw new InputError('role', `must be one of ${ROLES.join(', ')}`);
  if (!mayGrant(issuer.role, input.role)) {
    throw new RoleForbiddenError(issuer.role, `grant the ${input.role} role`);
  }
  const ceiling = issuer.operator?.expiresAt ?? null;
  const asked = input.expiresAt ?? null;
  if (asked !== null && asked <= now) throw new InputError('expires_at', 'must be in the future');
  if (ceiling !== null && asked !== null && asked > ceiling) {
    throw new InputError('expires_at', 'must not be later than the expiry of the token that issues it');
  }
  return asked ?? ceiling;
}

/** Operator identities: a role each, a token shown once and stored as its hash, expiring and revocable. */
export function createOperatorService({ store, clock }: ServiceDependencies) {
  return {
    async create(input: NewOperator, issuer: OperatorPrincipal = BOOTSTRAP_ADMIN): Promise<IssuedOperator> {
      if (!NAME.test(input.name)) {
        throw new InputError('name', OPERATOR_NAME_MESSAGE);
      }
      const now = clock.now();
      const expiresAt = grantedExpiry(issuer, input, now);
      const role = input.role as Role;
      return store.write(async (trx) => {
        await store.serialize(trx, 'operators');
        if ((await findLiveOperatorByName(trx, input.name)) !== undefined) {
          throw new AppError(
            409,
            'operator.already-exists',
            'an operator with this name exists: revoke it first',
          );
        }
        const generated = generateOperatorToken();
        const createdBy = issuer.operator === undefined ? 'operator' : `operator:${issuer.operator.name}`;
        const operator = await insertOperator(
          trx,
          { name: input.name, role, prefix: generated.prefix, hash: generated.hash, expiresAt, createdBy },
          now,
        );
        await recordAudit(
          trx,
          { actor: actorOf(issuer), action: 'issue', entity: 'operator', entityId: operator.id },
          now,
        );
        return { operator, token: generated.secret };
      });
    },

    async list(page: PageRequest): Promise<Page<Operator>> {
      return toPage(await listOperators(store.db, page), page.limit);
    },

    /** Another role for an operator, effective from its next request (decideRoleChange says whether it may). */
    async changeRole(
      id: number,
      role: string,
      issuer: OperatorPrincipal = BOOTSTRAP_ADMIN,
    ): Promise<Operator> {
      return store.write(async (trx) => {
        const target = mustExist(await findOperator(trx, id), 'operator');
        const changed = decideRoleChange(issuer, target, role);
        if (changed === undefined) return target;
        await setOperatorRole(trx, id, changed);
        await recordAudit(
          trx,
          { actor: actorOf(issuer), action: 'update', entity: 'operator', entityId: id },
          clock.now(),
        );
        return { ...target, role: changed };
      });
    },

    /** Refused from the next request on, in every process (operator tokens are looked up on each request). */
    async revoke(id: number, actor: Actor = OPERATOR): Promise<void> {
      await store.write(async (trx) => {
        mustExist(await findOperator(trx, id), 'operator');
        await revokeOperator(trx, id, clock.now());
        await recordAudit(trx, { actor, action: 'revoke', entity: 'operator', entityId: id }, clock.now());
      });
    },

    /** The live operator behind a presented token; undefined for anything else (unknown, revoked, expired). */
    async authenticate(token: string): Promise<Operator | undefined> {
      if (!OPERATOR_TOKEN_PATTERN.test(token)) return undefined;
      const operator = await findOperatorByHash(store.db, hashOperatorToken(token));
      return operator !== undefined && isLive(operator, clock.now()) ? operator : undefined;
    },

    /** The operator API is on while the environment has an admin token or any operator is live. */
    anyLive(): Promise<boolean> {
      return anyLiveOperator(store.db, clock.now());
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
