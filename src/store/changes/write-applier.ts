import type { Kysely } from 'kysely';
import type { NewEvent } from '../../domain/events.js';
import { StaleDecisionError, type Write } from '../../domain/writes.js';
import { recordAudit } from '../access/audit-repository.js';
import { insertCheckinRow, setCheckinStatus } from '../access/checkin-repository.js';
import { deleteCustomCode, insertCustomCode, updateCustomCode } from '../members/custom-code-repository.js';
import type { Database } from '../database.js';
import { appendEvents } from '../events/event-repository.js';
import { insertReversal } from '../ledger/reversal-repository.js';
import { insertTransaction } from '../ledger/transaction-repository.js';
import { countVisit } from '../plans/payout-counter-repository.js';

/**
 * Carries out a decision's writes through the query builder, inside the caller's transaction. A write that finds
 * its row in another state than the decision expected throws StaleDecisionError, which rolls the change back.
 */
export async function applyWrites(db: Kysely<Database>, writes: readonly Write[]): Promise<void> {
  const events: NewEvent[] = [];
  for (const write of writes) {
    if (write.kind === 'event') events.push(write.event);
    else if (!(await applyOne(db, write))) throw new StaleDecisionError(write.kind);
  }
  await appendEvents(db, events);
}

async function applyOne(db: Kysely<Database>, write: Exclude<Write, { kind: 'event' }>): Promise<boolean> {
  switch (write.kind) {
    case 'insert-checkin':
      await insertCheckinRow(db, write.checkin);
      return true;
    case 'checkin-status':
      return setCheckinStatus(db, write);
    case 'insert-code':
      return insertCustomCode(db, write, write.code, write.at);
    case 'update-code':
      return updateCustomCode(db, write, write.code, write.at);
    case 'delete-code':
      return deleteCustomCode(db, write);
    case 'audit':
      await recordAudit(db, write.entry, write.at);
      return true;
    case 'insert-transaction':
      await insertTransaction(db, write.transaction);
      return true;
    case 'insert-reversal':
      await insertReversal(db, write.reversal);
      return true;
    case 'count-visit':
      await countVisit(db, write);
      return true;
  }
}
