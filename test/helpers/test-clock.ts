import type { Clock } from '../../src/domain/clock.js';

/** A clock the test moves by hand: expiry is tested at its boundary, never by sleeping. */
export class TestClock implements Clock {
  constructor(private current = Date.parse('2026-03-02T12:00:00.000Z')) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(instant: string | number): void {
    this.current = typeof instant === 'number' ? instant : Date.parse(instant);
  }
}
