import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectNoLeaks } from '../../fixtures/fault-app.js';
import { platformId } from '../../fixtures/factories.js';
import { send, statusOf } from '../../fixtures/processes/http.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A custom code nobody else would write: 11 characters, so a hit in the output can only be a leak. */
const distinctCode = () => `Zq${hex(4)}!`;

describe('secrets in the output of a whole served run', () => {
  const dir = useTempDir('gatehouse-secrets-');
  const start = useServeProcesses();

  test('when a process serves a mixed run (keys issued over the operator API, validates with custom codes, the code endpoints, bad keys, wrong admin tokens, a revocation), then its stdout and stderr contain no key, no admin token, no custom code, no stack trace and no SQL', async () => {
    const adminToken = `adm_${hex(24)}`;
    const server = await start({
      GATEHOUSE_DATABASE_URL: `sqlite:${join(dir(), 'gatehouse.db')}`,
      GATEHOUSE_ADMIN_TOKEN: adminToken,
      // Stricter than production's info: nothing secret even in debug lines.
      GATEHOUSE_LOG_LEVEL: 'debug',
    });
    const secrets: string[] = [adminToken];
    const statuses: string[] = [];
    const call = async (method: string, path: string, token: string, json?: unknown, gymId?: number) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (gymId !== undefined) headers['x-gym-id'] = String(gymId);
      const outcome = await send(
        server.baseUrl,
        method,
        path,
        json === undefined ? { headers } : { headers, json },
      );
      statuses.push(`${method} ${path.split('?')[0]} ${statusOf(outcome)}`);
      return outcome.kind === 'response' ? (outcome.body as Record<string, unknown> | undefined) : undefined;
    };
    const admin = (method: string, path: string, json?: unknown) =>
      call(method, `/admin/v1${path}`, adminToken, json);

    const idOf = (body: Record<string, unknown> | undefined) => Number(body?.id);
    const partnerId = idOf(await admin('POST', '/partners', { name: 'Secret Partner' }));
    const gymId = idOf(await admin('POST', '/gyms', { partner_id: partnerId, name: 'Secret Gym' }));
    const productId = idOf(
      await admin('POST', `/gyms/${gymId}/products`, { description: 'Plan', payout_cents: 990 }),
    );
    const issued = [
      await admin('POST', `/partners/${partnerId}/keys`, { label: 'desk' }),
      await admin('POST', `/partners/${partnerId}/keys`, { gym_ids: [gymId] }),
    ];
    const [key, scopedKey] = issued.map((body) => body!.key as string);
    secrets.push(key!, scopedKey!);
    const members = Array.from({ length: 4 }, () => platformId());
    for (const member of members) {
      await admin('POST', '/checkins', { platform_id: member, gym_id: gymId, product_id: productId });
    }
    const codes = Array.from({ length: 5 }, distinctCode);
    const tooLong = `${distinctCode()}${distinctCode()}`;
    secrets.push(...codes, tooLong);
    const partnerCall = (method: string, path: string, token: string, json?: unknown) =>
      call(method, `/access/v1${path}`, token, json, gymId);

    await partnerCall('POST', '/validate', key!, { platform_id: members[0], custom_code: codes[0] });
    await partnerCall('POST', '/validate', scopedKey!, { platform_id: members[1], custom_code: codes[1] });
    await partnerCall('POST', '/validate', key!, { platform_id: members[2], custom_code: tooLong });
    await partnerCall('POST', `/code/${members[3]}`, key!, { custom_code: codes[2] });
    await partnerCall('POST', `/code/${members[3]}`, key!, { custom_code: codes[3] });
    await partnerCall('PUT', `/code/${members[3]}`, key!, { custom_code: codes[4] });
    await partnerCall('GET', `/code/${members[3]}`, key!);
    await partnerCall('DELETE', `/code/${members[3]}`, key!);
    await partnerCall('GET', '/transactions', key!);
    const badKeys = [`${key!.slice(0, -1)}0`, `ghk_${hex(4)}_${hex(20)}`, `not-a-key-${hex(8)}`];
    secrets.push(...badKeys);
    for (const bad of badKeys) await partnerCall('POST', '/validate', bad, { platform_id: members[2] });

    const wrongAdmin = `adm_${hex(24)}`;
    secrets.push(wrongAdmin);
    await call('GET', '/admin/v1/partners', wrongAdmin);
    await call('GET', '/admin/v1/partners', key!);
    await admin('GET', `/custom-codes?platform_id=${members[0]}&gym_id=${gymId}`);
    await admin('GET', '/audit');
    await admin('GET', '/transactions?format=csv');
    await admin('GET', `/partners/${partnerId}/keys`);
    await admin('DELETE', `/keys/${idOf(issued[1])}`);
    await partnerCall('POST', '/validate', scopedKey!, { platform_id: members[2] });

    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    // The run did what it says: every kind of answer is in it (or the grep below proves little).
    expect(statuses).toEqual(
      expect.arrayContaining([
        'POST /access/v1/validate 200',
        'POST /access/v1/validate 400',
        'POST /access/v1/validate 403',
        'POST /access/v1/code/' + members[3] + ' 201',
        'POST /access/v1/code/' + members[3] + ' 409',
        'PUT /access/v1/code/' + members[3] + ' 200',
        'GET /access/v1/code/' + members[3] + ' 200',
        'DELETE /access/v1/code/' + members[3] + ' 204',
        'GET /admin/v1/partners 403',
        'GET /admin/v1/custom-codes 200',
        `DELETE /admin/v1/keys/${idOf(issued[1])} 204`,
      ]),
    );
    // Stopped first, so every line the run logged is flushed out of the log buffer before it is read.
    server.kill('SIGTERM');
    expect(await server.exited).toMatchObject({ code: 0, signal: null });
    const output = server.output();
    expect(output.length, 'the run was logged').toBeGreaterThan(1000);
    // A control: the requests of those keys are in the output, named by their non-secret prefix.
    expect(output).toContain(`"key_prefix":"${key!.slice(0, 12)}"`);
    expectNoLeaks(output, secrets, 'the process output');
  });
});
