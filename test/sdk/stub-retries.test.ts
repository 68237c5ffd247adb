import { afterEach, describe, expect, it } from 'vitest';
import { GatehouseError, OutcomeUnknownError } from '../../sdk/src/index.js';
import { rejectionOf } from '../fixtures/live-gatehouse.js';
import { answer, hangUp, startStub, type LocalServer } from './servers.js';
import { CODE, MEMBER, UNAVAILABLE, clientOf } from './stub-client.js';

/** The idempotent calls against stubs: bounded retries on no answer, 503 and 429; create never re-sent. */

let stub: LocalServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('retries of the idempotent calls', () => {
  const unavailableTwice = (n: number, response: Parameters<typeof answer>[0], ok: () => void) =>
    n <= 2 ? answer(response, 503, UNAVAILABLE, { 'retry-after': '0' }) : ok();

  it('when GET code meets 503 twice, then the third attempt’s answer is returned', async () => {
    stub = await startStub((n, _request, response) =>
      unavailableTwice(n, response, () =>
        answer(response, 200, { metadata: { total: 1, errors: 0 }, results: CODE }),
      ),
    );
    expect(await clientOf(stub).getCustomCode(MEMBER)).toEqual(CODE);
    expect(stub.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('when PUT code meets 503 twice, then it is re-sent with the same body and succeeds', async () => {
    stub = await startStub((n, _request, response) =>
      unavailableTwice(n, response, () =>
        answer(response, 200, { metadata: { total: 1, errors: 0 }, results: {} }),
      ),
    );
    await clientOf(stub).updateCustomCode(MEMBER, 'QR-2');
    expect(stub.requests.map((request) => [request.method, request.body])).toEqual(
      Array.from({ length: 3 }, () => ['PUT', '{"custom_code":"QR-2"}']),
    );
  });

  it('when DELETE code meets 503 twice, then it is re-sent and succeeds', async () => {
    stub = await startStub((n, _request, response) =>
      unavailableTwice(n, response, () => answer(response, 204)),
    );
    await clientOf(stub).deleteCustomCode(MEMBER);
    expect(stub.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
  });

  it('when GET transactions loses a connection, then it is re-sent', async () => {
    const page = { metadata: { total: 0, errors: 0 }, results: [], next_cursor: 'YXQ6MDow', has_more: false };
    stub = await startStub((n, _request, response) =>
      n === 1 ? hangUp(response) : answer(response, 200, page),
    );
    expect(await clientOf(stub).listTransactions({ limit: 5 })).toEqual({
      transactions: [],
      nextCursor: null,
      hasMore: false,
      resumeCursor: 'YXQ6MDow',
    });
    expect(stub.requests.map((request) => request.url)).toEqual([
      '/access/v1/transactions?limit=5',
      '/access/v1/transactions?limit=5',
    ]);
  });

  it('when 503 never ends, then the retries are bounded and the last 503 is thrown', async () => {
    stub = await startStub((_n, _request, response) =>
      answer(response, 503, UNAVAILABLE, { 'retry-after': '0' }),
    );
    const error = await rejectionOf(clientOf(stub).getCustomCode(MEMBER));
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ status: 503, key: 'service.unavailable' });
    expect(stub.requests).toHaveLength(3);
  });

  it('when a GET never gets an answer, then OutcomeUnknownError after the bounded attempts', async () => {
    stub = await startStub(() => undefined);
    const error = await rejectionOf(clientOf(stub, 150).getCustomCode(MEMBER));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'timeout', attempts: 3 });
    expect(stub.requests).toHaveLength(3);
  });

  it('when a 429 asks for Retry-After: 1, then the retry waits at least that second', async () => {
    const limited = {
      metadata: { total: 0, errors: 1 },
      errors: [{ message: 'too many requests', key: 'rate.limited' }],
    };
    stub = await startStub((n, _request, response) =>
      n === 1
        ? answer(response, 429, limited, { 'retry-after': '1' })
        : answer(response, 200, { metadata: { total: 1, errors: 0 }, results: CODE }),
    );
    expect(await clientOf(stub).getCustomCode(MEMBER)).toEqual(CODE);
    const [first, second] = stub.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('when a 429 asks for longer than the longest wait, then it is not retried', async () => {
    const limited = {
      metadata: { total: 0, errors: 1 },
      errors: [{ message: 'too many requests', key: 'rate.limited' }],
    };
    stub = await startStub((_n, _request, response) =>
      answer(response, 429, limited, { 'retry-after': '60' }),
    );
    const error = await rejectionOf(clientOf(stub).getCustomCode(MEMBER));
    expect(error).toMatchObject({ status: 429, key: 'rate.limited', message: 'too many requests' });
    expect(stub.requests).toHaveLength(1);
  });

  it('when POST create meets 503, then it is not re-sent', async () => {
    stub = await startStub((_n, _request, response) =>
      answer(response, 503, UNAVAILABLE, { 'retry-after': '0' }),
    );
    const error = await rejectionOf(clientOf(stub).createCustomCode(MEMBER, 'QR-3'));
    expect(error).toMatchObject({ status: 503, key: 'service.unavailable' });
    expect(stub.requests).toHaveLength(1);
  });

  it('when POST create loses its connection, then OutcomeUnknownError and it is not re-sent', async () => {
    stub = await startStub((_n, _request, response) => hangUp(response));
    const error = await rejectionOf(clientOf(stub).createCustomCode(MEMBER, 'QR-3'));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'network', attempts: 1 });
    expect(stub.requests).toHaveLength(1);
  });
});

describe('answers that are none of the service’s shapes', () => {
  it('when a proxy answers 502 with HTML, then GatehouseError key unexpected-response with the text', async () => {
    stub = await startStub((_n, _request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad gateway</html>');
    });
    const error = await rejectionOf(clientOf(stub).getCustomCode(MEMBER));
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({
      status: 502,
      key: 'unexpected-response',
      body: '<html>Bad gateway</html>',
    });
  });
});
