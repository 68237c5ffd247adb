import SqliteDatabase from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import * as partner from '../fixtures/partner-api.js';
import type { TestApp } from '../fixtures/test-app.js';

const UNAVAILABLE = partner.errorEnvelope('service.unavailable', 'service temporarily unavailable');

/** Runs `work` while another connection holds SQLite's write lock, beyond gatehouse's busy timeout. */
async function whileLockedElsewhere<T>(t: TestApp, work: () => Promise<T>): Promise<T> {
  const other = new SqliteDatabase(t.databaseUrl.slice('sqlite:'.length));
  other.exec('begin exclusive');
  try {
    return await work();
  } finally {
    other.exec('rollback');
    other.close();
  }
}

// SQLite only: a writer locked out beyond the busy timeout is the store fault a single process can provoke.
describe('store unavailable (sqlite)', () => {
  const app = partner.sharedApp({ dialect: 'sqlite' });

  test('when the database is locked by another writer, then validate answers 503 with Retry-After and nothing is written', async () => {
    const t = app();
    const { a, checkin } = await partner.arrangeWithCheckin(t);
    const response = await partner.expectReplyNoWrite(t, 503, UNAVAILABLE, () =>
      whileLockedElsewhere(t, () =>
        partner.postValidate(t, a.headers, { platform_id: checkin.platformId, custom_code: 'LOCKED' }),
      ),
    );
    expect(response.headers['retry-after']).toBe('1');
  });

  test('when the database is locked by another writer, then POST code answers 503 with Retry-After and stores nothing', async () => {
    const t = app();
    const a = await arrangePartner(t.services);
    const response = await partner.expectReplyNoWrite(t, 503, UNAVAILABLE, () =>
      whileLockedElsewhere(t, () =>
        partner.codeRequest(t, 'POST', platformId(), a.headers, { custom_code: 'LOCKED' }),
      ),
    );
    expect(response.headers['retry-after']).toBe('1');
  });
});
