import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import {
  EXPLICIT_DENY,
  NOT_FOUND_CHECKIN,
  expectReply,
  postValidate,
  sharedApp,
} from '../fixtures/partner-api.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

/** Default GATEHOUSE_KEY_CACHE_SECONDS, in milliseconds. */
const KEY_CACHE_MS = 5000;
let nextUnknownGym = 880_000_000_000;

describe.each(dialects)(
  "an unknown gym and another partner's gym are refused after the same work (%s)",
  (dialect) => {
    let t: TestApp;
    let a: Arranged;
    let other: Arranged;
    const shared = sharedApp({ dialect });
    beforeAll(async () => {
      t = shared();
      a = await arrangePartner(t.services);
      other = await arrangePartner(t.services);
    });
    const probe = (gymId: number) =>
      postValidate(t, { ...a.headers, 'x-gym-id': String(gymId) }, { platform_id: platformId() });

    test('when both have been probed once, then both are refused again without reading the gyms table', async () => {
      const unknownGym = (nextUnknownGym += 1);
      expectReply(await probe(unknownGym), 403, EXPLICIT_DENY);
      expectReply(await probe(other.gym.id), 403, EXPLICIT_DENY);

      // A gyms table nobody can read: a probe that still looked a gym up would fail, not answer 403.
      await sql`alter table gyms rename to gyms_away`.execute(t.store.db);
      try {
        expectReply(await probe(unknownGym), 403, EXPLICIT_DENY);
        expectReply(await probe(other.gym.id), 403, EXPLICIT_DENY);
      } finally {
        await sql`alter table gyms_away rename to gyms`.execute(t.store.db);
      }
    });

    test('when a gym refused as unknown is then created here, then its partner is served at once', async () => {
      const gymId = (nextUnknownGym += 1);
      expectReply(await probe(gymId), 403, EXPLICIT_DENY);

      await t.services.catalog.createGym({ id: gymId, partnerId: a.partner.id, name: 'Opened today' });

      expectReply(await probe(gymId), 404, NOT_FOUND_CHECKIN);
    });

    test('when a gym refused as unknown is created elsewhere, unannounced, then it is served once the key cache time has passed', async () => {
      const gymId = (nextUnknownGym += 1);
      expectReply(await probe(gymId), 403, EXPLICIT_DENY);
      await t.store.db
        .insertInto('gyms')
        .values({ id: gymId, partner_id: a.partner.id, name: 'Opened elsewhere', created_at: t.clock.now() })
        .execute();

      t.clock.advance(KEY_CACHE_MS);

      expectReply(await probe(gymId), 404, NOT_FOUND_CHECKIN);
      expect(await t.store.db.selectFrom('gyms').select('id').where('id', '=', gymId).execute()).toEqual([
        { id: gymId },
      ]);
    });
  },
);
