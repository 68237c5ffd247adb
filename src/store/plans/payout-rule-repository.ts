import type { Kysely } from 'kysely';
import type { PayoutRules, PayoutTier } from '../../domain/plans/payout-rules.js';
import type { Database } from '../database.js';

type Db = Kysely<Database>;

/** Whose rules: a partner's (no gym), or one gym's override of its partner's. */
export interface PayoutRulesOwner {
  readonly partnerId: number;
  readonly gymId?: number | undefined;
}

/** The owner's next version (its first is 1), in force from `effectiveFrom`. */
export async function insertPayoutRules(
  db: Db,
  owner: PayoutRulesOwner,
  rules: Omit<PayoutRules, 'version'>,
  now: number,
): Promise<PayoutRules> {
  const gymId = owner.gymId ?? 0;
  const last = await db
    .selectFrom('payout_rules')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('partner_id', '=', owner.partnerId)
    .where('gym_id', '=', gymId)
    .executeTakeFirst();
  const version = Number(last?.version ?? 0) + 1;
  const tiers = rules.tiers.map(({ afterCents, ratePct }) => ({ afterCents, ratePct }));
  await db
    .insertInto('payout_rules')
    .values({
      partner_id: owner.partnerId,
      gym_id: gymId,
      version,
      monthly_paid_visits_per_member: rules.monthlyPaidVisitsPerMember,
      tiers: JSON.stringify(tiers),
      effective_from: rules.effectiveFrom,
      created_at: now,
    })
    .execute();
  return {
    version,
    monthlyPaidVisitsPerMember: rules.monthlyPaidVisitsPerMember,
    tiers,
    effectiveFrom: rules.effectiveFrom,
  };
}

/** The owner's versions, oldest first. */
export async function payoutRuleVersions(db: Db, owner: PayoutRulesOwner): Promise<PayoutRules[]> {
  const rows = await db
    .selectFrom('payout_rules')
    .selectAll()
    .where('partner_id', '=', owner.partnerId)
    .where('gym_id', '=', owner.gymId ?? 0)
    .orderBy('version')
    .execute();
  return rows.map((row) => ({
    version: Number(row.version),
    monthlyPaidVisitsPerMember:
      row.monthly_paid_visits_per_member === null ? null : Number(row.monthly_paid_visits_per_member),
    tiers: JSON.parse(row.tiers) as PayoutTier[],
    effectiveFrom: Number(row.effective_from),
  }));
}

/** Whether any version of the partner's payout rules, its own or a gym's, has tiers. */
export async function partnerHasTiers(db: Db, partnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('payout_rules')
    .select('version')
    .where((eb) => eb.and([eb('partner_id', '=', partnerId), eb('tiers', '<>', '[]')]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
