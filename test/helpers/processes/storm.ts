import { setTimeout as sleep } from 'node:timers/promises';
import { validate, type Outcome } from './http.js';

export interface StormOptions {
  readonly baseUrl: string;
  readonly headers: Record<string, string>;
  readonly members: readonly string[];
  readonly workers: number;
  /** Each worker's pause between requests, so the storm lasts long enough to meet the fault. */
  readonly pauseMs: number;
  readonly requestTimeoutMs: number;
  /** The whole storm ends by then, finished or not. */
  readonly deadlineMs: number;
  readonly maxAttemptsPerMember: number;
  /** Called once, when this many answers have come back. */
  readonly fault: { afterAnswers: number; run: () => Promise<void> };
}

export interface Attempt {
  readonly member: string;
  readonly attempt: number;
  readonly outcome: Outcome;
}

/** 200 or 400 already validated end a member's attempts; anything else (503, a timeout …) is retried later. */
function settled(outcome: Outcome): boolean {
  return outcome.kind === 'response' && (outcome.status === 200 || outcome.status === 400);
}

/**
 * Validates every member's check-in through `workers` concurrent clients, retrying the unsettled ones the way a
 * front desk would, while `fault` strikes part-way. Bounded by the deadline and the attempts per member.
 */
export async function runStorm(options: StormOptions) {
  const queue = [...options.members];
  const attempts: Attempt[] = [];
  const tries = new Map<string, number>();
  const deadline = performance.now() + options.deadlineMs;
  // Settles with the fault's error, if any, so a failing fault is reported after the storm, not lost.
  let fault: Promise<Error | undefined> | undefined;

  const worker = async () => {
    while (performance.now() < deadline) {
      const member = queue.shift();
      if (member === undefined) {
        // Others may still put a member back; stop only when nobody is in flight.
        if (attempts.length >= inFlightFloor()) return;
        await sleep(options.pauseMs);
        continue;
      }
      const attempt = (tries.get(member) ?? 0) + 1;
      tries.set(member, attempt);
      const outcome = await validate(options.baseUrl, options.headers, member, options.requestTimeoutMs);
      attempts.push({ member, attempt, outcome });
      if (fault === undefined && attempts.length >= options.fault.afterAnswers) {
        fault = options.fault.run().then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
      }
      if (!settled(outcome) && attempt < options.maxAttemptsPerMember) queue.push(member);
      await sleep(options.pauseMs);
    }
  };
  // Every attempt started has been recorded when the recorded count equals the started count.
  const inFlightFloor = () => [...tries.values()].reduce((sum, n) => sum + n, 0);

  await Promise.all(Array.from({ length: options.workers }, worker));
  const faultError = await fault;
  if (faultError !== undefined) throw faultError;
  return { attempts, faultStruck: fault !== undefined, unfinished: queue };
}
