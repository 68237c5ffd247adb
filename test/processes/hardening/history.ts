import { validate, type Outcome } from '../../fixtures/processes/http.js';

/** One request as the client saw it: what was sent, when, and how it ended (answered with a status, or failed). */
export interface Sent {
  readonly member: string;
  readonly sentAt: number;
  readonly outcome: Outcome;
}

export interface HistoryOptions {
  readonly baseUrl: string;
  readonly headers: Record<string, string>;
  readonly members: readonly string[];
  readonly workers: number;
  readonly requestTimeoutMs: number;
  /** The whole run ends by then, finished or not. */
  readonly deadlineMs: number;
  /** Called once, as soon as this many answers have come back (the fault strikes mid-storm). */
  readonly fault: { readonly afterAnswers: number; run(): void };
  /** Workers stop taking new members once this says the server is gone. */
  readonly serverAlive: () => boolean;
}

/**
 * Concurrent validates, one per member, each recorded before and after: a history to check the store against.
 * Nothing is retried here; what happened to the failed ones is for the test to find out afterwards.
 */
export async function recordValidateHistory(options: HistoryOptions) {
  const queue = [...options.members];
  const history: Sent[] = [];
  const deadline = performance.now() + options.deadlineMs;
  let answers = 0;
  let struck = false;
  const worker = async () => {
    while (performance.now() < deadline && options.serverAlive()) {
      const member = queue.shift();
      if (member === undefined) return;
      const sentAt = performance.now();
      const outcome = await validate(options.baseUrl, options.headers, member, options.requestTimeoutMs);
      history.push({ member, sentAt, outcome });
      if (outcome.kind === 'response') answers += 1;
      if (!struck && answers >= options.fault.afterAnswers) {
        struck = true;
        options.fault.run();
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return { history, struck, unsent: queue };
}

export function statusOrFailure(outcome: Outcome): string {
  return outcome.kind === 'response' ? String(outcome.status) : outcome.kind;
}
