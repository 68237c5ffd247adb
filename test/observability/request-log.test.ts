import { beforeAll, describe, expect, it } from 'vitest';
import { dialects, useApp, type TestApp } from '../fixtures/test-app.js';
import { CUSTOM_CODE, UNKNOWN_KEY, runScenario, type Step } from './scenario.js';

type Line = Record<string, unknown>;
const VALIDATE = '/access/v1/validate';
const CODE = '/access/v1/code/:platform_id';

describe.each(dialects)('the request log (%s)', (dialect) => {
  let t: TestApp;
  let run: Awaited<ReturnType<typeof runScenario>>;
  let lines: Line[];
  const shared = useApp({ dialect });
  beforeAll(async () => {
    t = shared();
    run = await runScenario(t);
    lines = t.logs.lines.map((line) => JSON.parse(line) as Line);
  });

  /** The line a request must leave: its id, route, status and outcome key, and who asked when a key was good. */
  function expectedLine(step: Step, route: string, outcome: string, partner: boolean): Line {
    const { a } = run;
    return {
      level: 30,
      time: expect.any(Number) as unknown,
      pid: expect.any(Number) as unknown,
      hostname: expect.any(String) as unknown,
      reqId: step.id,
      method: step.method,
      route,
      url: step.url,
      status: step.status,
      outcome,
      ...(partner
        ? { partner_id: a.partner.id, gym_id: a.gym.id, key_prefix: a.key.split('_', 2).join('_') }
        : {}),
      duration_ms: expect.any(Number) as unknown,
      msg: 'request',
    };
  }

  it('when the requests are done, then the log has exactly one JSON line per request, and nothing else', () => {
    expect(lines.map((line) => line.reqId)).toEqual(run.steps.map((step) => step.id));
  });

  it('when a request is logged, then its line has id, route, status, outcome key, partner, gym, key prefix and duration', () => {
    const [ok, again, unknown, noCode, created, health, refused, anonymous, nowhere, wrongMethod] =
      run.steps as [Step, Step, Step, Step, Step, Step, Step, Step, Step, Step];
    expect(lines).toEqual([
      expectedLine(ok, VALIDATE, 'ok', true),
      expectedLine(again, VALIDATE, 'checkin.already.validated', true),
      expectedLine(unknown, VALIDATE, 'checkin.validation.notfound', true),
      expectedLine(noCode, CODE, 'checkin.custom-code.not-found', true),
      expectedLine(created, CODE, 'ok', true),
      expectedLine(health, '/health', 'ok', false),
      {
        ...expectedLine(refused, VALIDATE, 'forbidden', false),
        refusal: 'unknown-key',
        key_prefix: 'ghk_0badc0de',
      },
      expectedLine(anonymous, VALIDATE, 'unauthorized', false),
      expectedLine(nowhere, 'unmatched', 'route.not-found', false),
      expectedLine(wrongMethod, VALIDATE, 'route.method-not-allowed', false),
    ]);
    for (const line of lines) expect(line.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('when the log is searched for secrets, then no key, token or custom code is in it', () => {
    const text = t.logs.text();
    const secretPart = run.a.key.split('_')[2] ?? '';
    expect(secretPart).toHaveLength(40);
    for (const secret of [run.a.key, secretPart, UNKNOWN_KEY, CUSTOM_CODE, 'Bearer']) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it('when X-Request-Id is not a sane token, then a fresh id is used, in the log and the answer alike', async () => {
    const before = t.logs.lines.length;
    const response = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'has spaces' },
    });
    const logged = t.logs.lines.slice(before).map((line) => JSON.parse(line) as Line);
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged).toEqual([expect.objectContaining({ reqId: id, route: '/health', status: 200 })]);
  });
});
