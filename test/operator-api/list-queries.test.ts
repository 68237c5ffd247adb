import { describe, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { admin, operatorApp } from '../fixtures/operator-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';
import { expectReply } from '../fixtures/partner-api.js';

const DAY = 'from=2026-03-02&to=2026-03-03';

/** The operator lists' query parameters, checked before anything is read: one table for every list. */
describe.each(dialects)('operator API: a list asked with a bad query (%s)', (dialect) => {
  const app = operatorApp({ dialect });

  test.each([
    ['/checkins?status=foo', 'status', 'must be one of pending, validated, cancelled, expired'],
    ['/checkins?platform_id=123', 'platform_id', 'must be a string of 13 digits'],
    ['/checkins?gym_id=-1', 'gym_id', 'must be a positive integer'],
    ['/checkins?limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['/checkins?cursor=bogus', 'cursor', 'is not a cursor this API returned'],
    ['/transactions?from=2026-03-03&to=2026-03-02', 'to', 'must be later than from'],
    ['/transactions?from=2026-03-02&to=2026-03-02', 'to', 'must be later than from'],
    ['/transactions?from=yesterday', 'from', 'must be an ISO-8601 date or date-time'],
    ['/transactions?from=2026-02-30', 'from', 'must be an ISO-8601 date or date-time'],
    ['/transactions?to=2026-03-02T25:00', 'to', 'must be an ISO-8601 date or date-time'],
    ['/transactions?partner_id=x', 'partner_id', 'must be a positive integer'],
    ['/transactions?gym_id=0', 'gym_id', 'must be a positive integer'],
    ['/transactions?format=xml', 'format', 'must be one of json, csv'],
    ['/transactions?limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['/transactions?limit=1001', 'limit', 'must be an integer from 1 to 1000'],
    ['/transactions?cursor=bogus', 'cursor', 'is not a cursor this API returned'],
    ['/transactions?format=csv&from=yesterday', 'from', 'must be an ISO-8601 date or date-time'],
    // Only from: up to the end of today (2026-03-02 on the test clock), which a later from does not reach.
    ['/payouts?from=2026-03-03', 'to', 'must be later than from'],
    ['/payouts?from=2026-03-03&to=2026-03-02', 'to', 'must be later than from'],
    ['/payouts?from=March&to=2026-03-03', 'from', 'must be an ISO-8601 date or date-time'],
    ['/payouts?from=2026-02-29&to=2026-03-03', 'from', 'must be an ISO-8601 date or date-time'],
    [`/payouts?${DAY}&partner_id=abc`, 'partner_id', 'must be a positive integer'],
    [`/payouts?${DAY}&format=pdf`, 'format', 'must be one of json, csv'],
  ])('when GET /admin/v1%s, then 400 key %s', async (url, key, message) => {
    expectReply(await admin(app(), 'GET', url), 400, errorEnvelope(key, message));
  });
});
