import { describe, expect, test } from 'vitest';
import { decideAttempt } from './attempt-outcome.js';
import { DISABLE_AFTER_MS, nextAttemptAt, parseRetryAfter, parseRetrySchedule } from './retry-schedule.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const SCHEDULE = [5, 300, 1800];
const context = { now: NOW, schedule: SCHEDULE, failingSince: null, random: 0.5 };

describe('what one attempt comes to', () => {
  test('when the receiver answers 2xx, then the delivery is delivered and the endpoint healthy', () => {
    expect(decideAttempt({ roundFailures: 2 }, { kind: 'answer', statusCode: 204 }, context)).toEqual({
      outcome: 'delivered',
      delivery: {
        status: 'delivered',
        roundFailures: 2,
        nextAttemptAt: NOW,
        lastStatusCode: 204,
        lastError: null,
        deliveredAt: NOW,
      },
      endpoint: { healthy: true },
    });
  });

  test('when the first attempt fails, then the next is the first delay of the schedule', () => {
    expect(decideAttempt({ roundFailures: 0 }, { kind: 'answer', statusCode: 500 }, context)).toEqual({
      outcome: 'retrying',
      delivery: {
        status: 'pending',
        roundFailures: 1,
        nextAttemptAt: NOW + 5000,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        deliveredAt: null,
      },
      endpoint: { healthy: false },
    });
  });

  test('when the last delay of the schedule has been used, then the delivery is failed', () => {
    const outcome = decideAttempt(
      { roundFailures: 3 },
      { kind: 'no-answer', error: 'connection refused' },
      context,
    );
    expect([outcome.outcome, outcome.delivery.status, outcome.delivery.lastError]).toEqual([
      'failed',
      'failed',
      'connection refused',
    ]);
  });

  test('when the receiver answers 429 or 503 with Retry-After, then that delay replaces the schedule’s; on a 500 it does not', () => {
    const limited = (statusCode: number) =>
      decideAttempt({ roundFailures: 0 }, { kind: 'answer', statusCode, retryAfter: '120' }, context).delivery
        .nextAttemptAt;
    expect([limited(429), limited(503), limited(500)]).toEqual([NOW + 120_000, NOW + 120_000, NOW + 5000]);
  });

  test('when the receiver answers 410 or a redirect, then 410 disables the endpoint and a redirect is a failure', () => {
    const gone = decideAttempt({ roundFailures: 0 }, { kind: 'answer', statusCode: 410 }, context);
    expect([gone.outcome, gone.delivery.status, gone.endpoint]).toEqual([
      'gone',
      'failed',
      { healthy: false, disable: 'gone' },
    ]);
    const moved = decideAttempt({ roundFailures: 0 }, { kind: 'answer', statusCode: 301 }, context);
    expect([moved.outcome, moved.delivery.lastError]).toEqual(['retrying', 'redirect (301) not followed']);
  });

  test('when every attempt has failed for five days, then the endpoint is disabled; a moment less, it is not', () => {
    const failing = (since: number) =>
      decideAttempt(
        { roundFailures: 0 },
        { kind: 'answer', statusCode: 500 },
        { ...context, failingSince: since },
      ).endpoint;
    expect(failing(NOW - DISABLE_AFTER_MS)).toEqual({ healthy: false, disable: 'failing' });
    expect(failing(NOW - DISABLE_AFTER_MS + 1)).toEqual({ healthy: false });
  });
});

describe('the retry schedule', () => {
  test('when delays are jittered, then each stays within ±10 % (the first retry within 10 s)', () => {
    expect([0, 1].map((random) => nextAttemptAt([5], 1, NOW, undefined, random))).toEqual([
      NOW + 4500,
      NOW + 5500,
    ]);
  });

  test('when the setting is read, then seconds with fractions are taken and anything else refused', () => {
    expect(parseRetrySchedule('0.2, 5,300')).toEqual([0.2, 5, 300]);
    for (const bad of ['', '5,,6', '-1', 'soon', '604801'])
      expect(() => parseRetrySchedule(bad), bad).toThrow();
  });

  test('when Retry-After is seconds or a date, then it is read as seconds from now; garbage is ignored', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7);
    expect(parseRetryAfter(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30);
    expect(parseRetryAfter('whenever', NOW)).toBeUndefined();
  });
});
