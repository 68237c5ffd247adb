import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliOn, expectSuccess, jsonOf, useTempDir } from '../../fixtures/processes/cli.js';

const env = { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' };

describe('gatehouse webhook …', () => {
  const dir = useTempDir();

  test('when an operator adds, lists, updates, rotates, reads the log of, recovers and removes a webhook, then each command does it and says so', async () => {
    const cli = cliOn(`sqlite:${join(dir(), 'webhooks.db')}`);
    expectSuccess(await cli(['migrate']));
    const partner = expectSuccess(await cli(['partner', 'create', 'Acme', '--format', 'id'])).stdout.trim();

    const added = jsonOf<Record<string, unknown>>(
      await cli(
        [
          'webhook',
          'add',
          '--partner',
          partner,
          '--url',
          'http://127.0.0.1:9/hooks',
          '--events',
          'checkin.created',
          '--format',
          'json',
        ],
        env,
      ),
    );
    expect(added).toEqual({
      id: 1,
      partner_id: Number(partner),
      url: 'http://127.0.0.1:9/hooks',
      event_types: ['checkin.created'],
      gym_ids: null,
      format: 'standard',
      timeout_ms: 15000,
      status: 'enabled',
      disabled_reason: null,
      created_at: expect.any(String) as unknown,
      updated_at: expect.any(String) as unknown,
      secret: expect.stringMatching(/^whsec_/) as unknown,
    });
    const listed = jsonOf<Record<string, unknown>[]>(
      await cli(['webhook', 'list', '--partner', partner, '--format', 'json']),
    );
    expect(listed).toEqual(
      [{ ...added, secret: undefined }].map((row) => JSON.parse(JSON.stringify(row)) as unknown),
    );

    const updated = jsonOf<Record<string, unknown>>(
      await cli(['webhook', 'update', '1', '--timeout-ms', '2000', '--format', 'json'], env),
    );
    expect(updated).toMatchObject({ id: 1, timeout_ms: 2000 });
    expect(expectSuccess(await cli(['webhook', 'rotate', '1'])).stdout).toMatch(
      /^secret: whsec_\S+\n\nThis is the only time/,
    );
    expect(
      jsonOf(await cli(['webhook', 'deliveries', '1', '--status', 'failed', '--format', 'json'])),
    ).toEqual([]);
    expect(expectSuccess(await cli(['webhook', 'recover', '1', '--since', '2026-01-01'])).stdout).toBe(
      '0 failed deliveries of webhook 1 are due now\n',
    );
    expect(expectSuccess(await cli(['webhook', 'remove', '1'])).stdout).toBe('webhook 1 removed\n');
    expect(jsonOf(await cli(['webhook', 'list', '--partner', partner, '--format', 'json']))).toEqual([]);

    const refused = await cli(['webhook', 'add', '--partner', partner, '--url', 'http://127.0.0.1:9/hooks']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'gatehouse: must not point to a loopback, private, link-local or multicast address (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE) (url)\n',
    );
  });

  test('when a partner has its quota of endpoints, then webhook add is refused with webhook.limit and adds nothing', async () => {
    const cli = cliOn(`sqlite:${join(dir(), 'webhook-limit.db')}`);
    const limited = { ...env, GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: '1' };
    expectSuccess(await cli(['migrate']));
    const partner = expectSuccess(await cli(['partner', 'create', 'Acme', '--format', 'id'])).stdout.trim();
    const add = ['webhook', 'add', '--partner', partner, '--url', 'http://127.0.0.1:9/hooks'];
    jsonOf(await cli([...add, '--format', 'json'], limited));

    const refused = await cli(add, limited);

    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      '',
      'gatehouse: a partner may have at most 1 webhook endpoint, disabled ones included: remove one before adding another (webhook.limit)\n',
    ]);
    expect(jsonOf(await cli(['webhook', 'list', '--partner', partner, '--format', 'json']))).toHaveLength(1);
  });
});
