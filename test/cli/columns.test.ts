import { describe, expect, test } from 'vitest';
import { COLUMNS } from '../../src/cli/columns.js';
import { DeliveryAttempt } from '../../src/http/webhook-wire.js';
import { Transaction } from '../../src/operator-api/ledger-routes.js';
import { Operator } from '../../src/operator-api/operator-routes.js';
import { PayoutRulesVersion } from '../../src/operator-api/payout-rule-routes.js';
import { MemberPlan, Plan } from '../../src/operator-api/plan-wire.js';
import { SettledEntry, SettlementRow } from '../../src/operator-api/settlement-routes.js';
import { ApiKey, Checkin, Gym, Partner, Product } from '../../src/operator-api/schemas.js';

describe('the columns the CLI prints', () => {
  test.for([
    ['partner', Partner],
    ['gym', Gym],
    ['product', Product],
    ['apiKey', ApiKey],
    ['checkin', Checkin],
    ['operator', Operator],
    ['plan', Plan],
    ['memberPlan', MemberPlan],
    ['payoutRules', PayoutRulesVersion],
    ['transaction', Transaction],
    ['settlement', SettlementRow],
    ['settledEntry', SettledEntry],
    ['deliveryAttempt', DeliveryAttempt],
  ] as const)(
    'when the CLI lists %s records, then its columns are the fields every record of the API schema has, in order',
    ([name, schema]) => {
      // A field only some records carry (a sandbox partner's flag, a check-in's member details) is left to
      // --format json: tables and CSV keep one shape, and member details stay off terminals and spreadsheets.
      const always = (schema as { required?: string[] }).required ?? [];
      expect(COLUMNS[name]).toEqual(Object.keys(schema.properties).filter((field) => always.includes(field)));
    },
  );
});
