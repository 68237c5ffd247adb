import { afterEach, describe, expect, it } from 'vitest';
import { GatehouseClient, GatehouseError, OutcomeUnknownError } from '../../sdk/src/index.js';
import { rejectionOf } from '../fixtures/live-gatehouse.js';
import { answer, hangUp, startStub, type LocalServer } from './servers.js';
import { MEMBER, UNAVAILABLE, VALID_BODY, clientOf } from './stub-client.js';

/** validate against stubs: never re-sent on its own, and tolerant of an empty 200. */

let stub: LocalServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('validate without an answer', () => {
  it('when the server never answers, then OutcomeUnknownError (timeout) after exactly one request', async () => {
    stub = await startStub(() => undefined);
    const started = Date.now();

    const error = await rejectionOf(clientOf(stub, 300).validate({ platformId: MEMBER }));

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'timeout', attempts: 1 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stub.requests).toHaveLength(1);
  });

  it('when the connection is cut, then OutcomeUnknownError (network) and no second request', async () => {
    stub = await startStub((_n, _request, response) => hangUp(response));

    const error = await rejectionOf(clientOf(stub).validate({ platformId: MEMBER }));

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'network', attempts: 1 });
    expect(stub.requests).toHaveLength(1);
  });

  it('when nothing listens at all, then OutcomeUnknownError (network)', async () => {
    stub = await startStub(() => undefined);
    const { url } = stub;
    await stub.close();
    stub = undefined;
    const client = new GatehouseClient({ baseUrl: url, apiKey: 'k', gymId: 7 });

    const error = await rejectionOf(client.validate({ platformId: MEMBER }));

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'network', attempts: 1 });
  });

  it('when the server answers 503, then GatehouseError 503 and validate is not re-sent', async () => {
    stub = await startStub((_n, _request, response) =>
      answer(response, 503, UNAVAILABLE, { 'retry-after': '0' }),
    );
    const error = await rejectionOf(clientOf(stub).validate({ platformId: MEMBER }));
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ status: 503, key: 'service.unavailable' });
    expect(stub.requests).toHaveLength(1);
  });
});

describe('validate answered 200', () => {
  it('when the 200 has no body, then the result is validated and marked as having no details', async () => {
    stub = await startStub((_n, _request, response) => answer(response, 200));
    expect(await clientOf(stub).validate({ platformId: MEMBER })).toEqual({
      status: 'validated',
      details: null,
    });
  });

  it('when the 200 is an empty body typed JSON, then it is tolerated the same way', async () => {
    stub = await startStub((_n, _request, response) =>
      answer(response, 200, undefined, { 'content-type': 'application/json' }),
    );
    expect(await clientOf(stub).validate({ platformId: MEMBER })).toEqual({
      status: 'validated',
      details: null,
    });
  });

  it('when the 200 has the documented body, then it is the details, and the request is the documented one', async () => {
    stub = await startStub((_n, _request, response) => answer(response, 200, VALID_BODY));

    const result = await clientOf(stub).validate({ platformId: MEMBER, customCode: 'QR-1' });

    expect(result).toEqual({ status: 'validated', details: VALID_BODY.results });
    const [request] = stub.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/access/v1/validate' });
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer ghk_test',
      'x-gym-id': '7',
      'content-type': 'application/json',
    });
    expect(JSON.parse(request?.body ?? '')).toEqual({ platform_id: MEMBER, custom_code: 'QR-1' });
  });
});

describe('validate with retry asked', () => {
  const already = {
    metadata: { total: 0, errors: 1 },
    errors: [{ message: 'Check-In already validated', key: 'checkin.already.validated' }],
  };

  it('when the first answer is a 503, then the outcome is known: thrown, not re-sent', async () => {
    stub = await startStub((_n, _request, response) =>
      answer(response, 503, UNAVAILABLE, { 'retry-after': '0' }),
    );
    const error = await rejectionOf(
      clientOf(stub).validate({ platformId: MEMBER }, { retry: { attempts: 3, delayMs: 0 } }),
    );
    expect(error).toMatchObject({ status: 503, key: 'service.unavailable' });
    expect(stub.requests).toHaveLength(1);
  });

  it('when a re-send meets a 503, then it keeps going until an answer settles the first attempt', async () => {
    const script = [
      (response: Parameters<typeof answer>[0]) => hangUp(response),
      (response: Parameters<typeof answer>[0]) => answer(response, 503, UNAVAILABLE),
      (response: Parameters<typeof answer>[0]) => answer(response, 400, already),
    ];
    stub = await startStub((n, _request, response) => script[n - 1]?.(response));

    const result = await clientOf(stub).validate(
      { platformId: MEMBER },
      { retry: { attempts: 3, delayMs: 0 } },
    );

    expect(result).toEqual({ status: 'validated-earlier' });
    expect(stub.requests).toHaveLength(3);
  });

  it('when the re-sends run out on 503s, then the outcome is still unknown', async () => {
    stub = await startStub((n, _request, response) =>
      n === 1 ? hangUp(response) : answer(response, 503, UNAVAILABLE),
    );
    const error = await rejectionOf(
      clientOf(stub).validate({ platformId: MEMBER }, { retry: { attempts: 2, delayMs: 0 } }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'network', attempts: 2 });
    expect(stub.requests).toHaveLength(2);
  });
});
