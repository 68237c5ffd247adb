import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { forgetAttemptBodies } from '../webhooks/webhook-attempt-repository.js';

type Db = Kysely<Database>;

const PSEUDONYM_SECRET = 'member-pseudonym';

/** The key of members' pseudonyms: made once, on first use, and kept with the data it protects. */
export async function pseudonymSecret(db: Db, now: number): Promise<string> {
  const secret = db.selectFrom('server_secrets').select('value').where('name', '=', PSEUDONYM_SECRET);
  const found = await secret.executeTakeFirst();
  if (found !== undefined) return found.value;
  await db
    .insertInto('server_secrets')
    .values({ name: PSEUDONYM_SECRET, value: randomBytes(32).toString('hex'), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const made = await secret.executeTakeFirstOrThrow();
  return made.value;
}

export interface ErasedRows {
  readonly customCodes: number;
  readonly checkins: number;
  readonly transactions: number;
  readonly events: number;
  readonly auditEntries: number;
  readonly webhookDeliveries: number;
  readonly reversalReasons: number;
}

/** What an operator's free text about an erased member's entries (a reversal's reason) becomes. */
export const ERASED_TEXT = 'erased';

const count = (result: { numDeletedRows?: bigint; numUpdatedRows?: bigint }) =>
  Number(result.numDeletedRows ?? result.numUpdatedRows ?? 0n);

/** Whether a JSON payload holds the member's id anywhere, as a value or inside one. */
function names(value: unknown, platformId: string): boolean {
  if (typeof value === 'string') return value.includes(platformId);
  if (Array.isArray(value)) return value.some((item) => names(item, platformId));
  if (value !== null && typeof value === 'object') {
    return Object.values(value).some((item) => names(item, platformId));
  }
  return false;
}

/**
 * Every table that holds a member's data, in one transaction (the caller's): the custom codes deleted (live
 * credentials), the platform_id replaced by the pseudonym in check-ins (their member details dropped),
 * transactions (the ledger still sums) and the member's payout counter rows (their visits and paid_cents kept, so
 * the counters still add up; the partner's total rows name no member), sandbox rows included (they share these
 * tables), the reasons of the reversals of their visits replaced by "erased", every stored event payload that
 * names the member purged (webhook deliveries send those payloads, so theirs go too), audit entries and webhook
 * deliveries' member keys that name the member pointed at the pseudonym. A table that comes to hold member data
 * gets its step here.
 */
export async function eraseMemberRows(db: Db, platformId: string, pseudonym: string): Promise<ErasedRows> {
  const customCodes = count(
    await db.deleteFrom('custom_codes').where('platform_id', '=', platformId).executeTakeFirst(),
  );
  // The member's plans go (not counted in the answer, whose fields predate plans).
  await db.deleteFrom('member_plans').where('platform_id', '=', platformId).execute();
  const checkins = count(
    await db
      .updateTable('checkins')
      .set({ platform_id: pseudonym, member: null })
      .where('platform_id', '=', platformId)
      .executeTakeFirst(),
  );
  // The operator's words about the member's visits may name them: each reversal's reason goes, its amount stays.
  const reversalReasons = count(
    await db
      .updateTable('reversals')
      .set({ reason: ERASED_TEXT })
      .where('reason', '!=', ERASED_TEXT)
      .where(
        'transaction_id',
        'in',
        db.selectFrom('transactions').select('id').where('platform_id', '=', platformId),
      )
      .executeTakeFirst(),
  );
  const transactions = count(
    await db
      .updateTable('transactions')
      .set({ platform_id: pseudonym })
      .where('platform_id', '=', platformId)
      .executeTakeFirst(),
  );
  // The member's payout counter rows (visits counted there while a process of a release before visit marks was
  // alive) keep counting under the pseudonym; the partner's total rows name no member.
  await db
    .updateTable('payout_counters')
    .set({ platform_id: pseudonym })
    .where('platform_id', '=', platformId)
    .execute();
  // A platform_id is 13 digits: no LIKE wildcard in it. The text match finds candidates; the parsed payload decides.
  const candidates = await db
    .selectFrom('events')
    .select(['position', 'data'])
    .where('data', 'like', `%${platformId}%`)
    .execute();
  const naming = candidates
    .filter((row) => row.data !== null && names(JSON.parse(row.data), platformId))
    .map((row) => row.position);
  for (let start = 0; start < naming.length; start += 500) {
    const positions = naming.slice(start, start + 500);
    await db.updateTable('events').set({ data: null }).where('position', 'in', positions).execute();
    await forgetAttemptBodies(db, positions);
  }
  const auditEntries = count(
    await db
      .updateTable('audit_log')
      .set({ entity_id: sql<string>`replace(entity_id, ${platformId}, ${pseudonym})` })
      .where('entity_id', 'like', `%${platformId}%`)
      .executeTakeFirst(),
  );
  // A webhook delivery keys its member·gym order by `<gym>:<platform_id>`: the same pseudonym keeps that order.
  const webhookDeliveries = count(
    await db
      .updateTable('webhook_deliveries')
      .set({ member_key: sql<string>`replace(member_key, ${`:${platformId}`}, ${`:${pseudonym}`})` })
      .where('member_key', 'like', `%:${platformId}`)
      .executeTakeFirst(),
  );
  return {
    customCodes,
    checkins,
    transactions,
    events: naming.length,
    auditEntries,
    webhookDeliveries,
    reversalReasons,
  };
}
