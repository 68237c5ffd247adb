import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { arrangePartner, platformId, type Arranged } from '../fixtures/factories.js';
import { EXPLICIT_DENY, expectReply, postValidate, sharedApp } from '../fixtures/partner-api.js';
import { dialects, type TestApp } from '../fixtures/test-app.js';

type Line = Record<string, unknown>;
const prefixOf = (key: string) => key.split('_', 2).join('_');

describe.each(dialects)(
  'a refused key is diagnosable from the log, never from the answer (%s)',
  (dialect) => {
    let t: TestApp;
    let a: Arranged;
    let other: Arranged;
    const shared = sharedApp({ dialect });
    beforeAll(async () => {
      t = shared();
      a = await arrangePartner(t.services, { scopedToGym: true });
      other = await arrangePartner(t.services);
    });

    /** Sends a validate, expects the one explicit-deny answer, and returns the request's log line. */
    async function refusedLine(headers: Record<string, string>): Promise<Line> {
      const response = await postValidate(t, headers, { platform_id: platformId() });
      expectReply(response, 403, EXPLICIT_DENY);
      const id = response.headers['x-request-id'];
      const line = t.logs.lines.map((text) => JSON.parse(text) as Line).find((entry) => entry.reqId === id);
      expect(line, 'the request was logged').toBeDefined();
      return line!;
    }
    const withKey = (key: string, gymId: number) => ({
      authorization: `Bearer ${key}`,
      'x-gym-id': String(gymId),
    });

    test('when a key-shaped token was never issued, then the line says unknown-key with the prefix it bears', async () => {
      const token = `ghk_${randomBytes(4).toString('hex')}_${randomBytes(20).toString('hex')}`;

      const line = await refusedLine(withKey(token, a.gym.id));

      expect(line).toMatchObject({
        status: 403,
        outcome: 'forbidden',
        refusal: 'unknown-key',
        key_prefix: prefixOf(token),
      });
    });

    test('when the token is not shaped like a key, then the line says unknown-key and logs no part of it', async () => {
      const token = `not-a-key-${randomBytes(8).toString('hex')}`;

      const line = await refusedLine(withKey(token, a.gym.id));

      expect(line).toMatchObject({ status: 403, outcome: 'forbidden', refusal: 'unknown-key' });
      expect(line).not.toHaveProperty('key_prefix');
      expect(JSON.stringify(line)).not.toContain(token.slice(0, 8));
    });

    test('when the key is revoked, then the line says revoked-key with its prefix', async () => {
      const issued = await t.services.apiKeys.issue(a.partner.id, { label: 'to revoke' });
      await t.services.apiKeys.revoke(issued.key.id);

      const line = await refusedLine(withKey(issued.secret, a.gym.id));

      expect(line).toMatchObject({ refusal: 'revoked-key', key_prefix: issued.key.prefix });
    });

    test('when the key has expired, then the line says expired-key with its prefix', async () => {
      const issued = await t.services.apiKeys.issue(a.partner.id, { expiresAt: t.clock.now() + 1000 });
      t.clock.advance(1000);

      const line = await refusedLine(withKey(issued.secret, a.gym.id));

      expect(line).toMatchObject({ refusal: 'expired-key', key_prefix: issued.key.prefix });
    });

    test("when the gym is another partner's, unknown, or outside the key's scope, then the line says which", async () => {
      const sameNetwork = await t.services.catalog.createGym({ partnerId: a.partner.id, name: 'Second gym' });

      expect(await refusedLine(withKey(a.key, other.gym.id))).toMatchObject({
        refusal: 'other-partner-gym',
        key_prefix: prefixOf(a.key),
      });
      expect(await refusedLine(withKey(a.key, 987_654_321_012))).toMatchObject({
        refusal: 'unknown-gym',
        key_prefix: prefixOf(a.key),
      });
      expect(await refusedLine(withKey(a.key, sameNetwork.id))).toMatchObject({
        refusal: 'out-of-scope-gym',
        key_prefix: prefixOf(a.key),
      });
    });
  },
);
