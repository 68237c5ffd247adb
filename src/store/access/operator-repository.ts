import type { Kysely } from 'kysely';
import { isRole, type Operator, type Role } from '../../domain/operator.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { Database, OperatorsTable } from '../database.js';
import { findById } from '../find-by-id.js';
import { pageById } from '../paging.js';
import { stampOnce } from '../stamp-once.js';
import type { Selectable } from 'kysely';

type Db = Kysely<Database>;

function toOperator(row: Selectable<OperatorsTable>): Operator {
  if (!isRole(row.role)) throw new Error(`operator ${row.id} has an unknown role`);
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

export async function findOperator(db: Db, id: number): Promise<Operator | undefined> {
  return findById(db, 'operators', id, toOperator);
}

export async function insertOperator(
  db: Db,
  operator: Omit<Operator, 'id' | 'revokedAt' | 'createdAt'> & { hash: string },
  now: number,
): Promise<Operator> {
  const row = await db
    .insertInto('operators')
    .values({
      name: operator.name,
      role: operator.role,
      prefix: operator.prefix,
      token_hash: operator.hash,
      expires_at: operator.expiresAt,
      created_by: operator.createdBy,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toOperator(row);
}

/** The operator not revoked that holds this name, if any. */
export async function findLiveOperatorByName(db: Db, name: string): Promise<Operator | undefined> {
  const row = await db
    .selectFrom('operators')
    .selectAll()
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row === undefined ? undefined : toOperator(row);
}

/** Looks an operator up by the hash of the presented token: the token itself is never compared. */
export async function findOperatorByHash(db: Db, hash: string): Promise<Operator | undefined> {
  const row = await db.selectFrom('operators').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  return row === undefined ? undefined : toOperator(row);
}

/** Whether any operator is neither revoked nor expired: the operator API is on while one is. */
export async function anyLiveOperator(db: Db, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('operators')
    .select('id')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listOperators(db: Db, page: PageRequest): Promise<Operator[]> {
  const rows = await pageById(db.selectFrom('operators').selectAll(), page).execute();
  return rows.map(toOperator);
}

/** Gives an operator another role: its token keeps working, with the new role's rights from its next request. */
export async function setOperatorRole(db: Db, id: number, role: Role): Promise<void> {
  await db.updateTable('operators').set({ role }).where('id', '=', id).execute();
}

/** Marks an operator revoked; revoking twice keeps the first revocation time. */
export async function revokeOperator(db: Db, id: number, now: number): Promise<void> {
  await stampOnce(db, 'operators', 'revoked_at', now).where('id', '=', id).execute();
}
