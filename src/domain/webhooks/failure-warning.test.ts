import { describe, expect, test } from 'vitest';
import { decideAttempt } from './attempt-outcome.js';
import { FAILURE_WARNING_EVERY_MS, failureWarning } from './failure-warning.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const context = { now: NOW, schedule: [5, 300], failingSince: null, random: 0.5 };
const answered = (statusCode: number) =>
  decideAttempt({ roundFailures: 0 }, { kind: 'answer', statusCode }, context);

describe('which failed attempts write a warning line', () => {
  test('when an attempt is answered 500 and the endpoint was never warned about, then the line gives the status', () => {
    expect(failureWarning(answered(500), undefined, NOW)).toEqual({ status: 500 });
  });

  test('when an attempt gets no answer, then the line gives the error', () => {
    const refused = decideAttempt(
      { roundFailures: 0 },
      { kind: 'no-answer', error: 'connection refused' },
      context,
    );
    expect(failureWarning(refused, undefined, NOW)).toEqual({ error: 'connection refused' });
  });

  test('when an attempt delivers, then there is no line', () => {
    expect(failureWarning(answered(204), undefined, NOW)).toBeUndefined();
  });

  test('when the endpoint was warned about less than a minute ago, then there is no line; a minute on, there is', () => {
    const warned = NOW - FAILURE_WARNING_EVERY_MS;
    expect(failureWarning(answered(503), warned + 1, NOW)).toBeUndefined();
    expect(failureWarning(answered(503), warned, NOW)).toEqual({ status: 503 });
  });

  test('when the clock was set back past the last warning, then the line is due at once', () => {
    expect(failureWarning(answered(500), NOW + 1, NOW)).toEqual({ status: 500 });
  });
});
