import { errorFromAnswer, OutcomeUnknownError } from './errors.js';
import { NoAnswer, type Answer } from './transport.js';
import type { ValidationDetails, ValidationResultBody } from './types.js';

export interface ValidateInput {
  /** The member: 13 digits. */
  readonly platformId: string;
  /** Stored for the member at the gym whenever the check-in exists, whatever its state. */
  readonly customCode?: string;
}

export type ValidateResult =
  /**
   * Validated by this call. `details` is null when the 200 came with no body (other servers of this API may
   * answer so).
   */
  | { readonly status: 'validated'; readonly details: ValidationDetails | null }
  /** Only after an unknown outcome and a re-send: the check-in had been validated — by the unanswered attempt. */
  | { readonly status: 'validated-earlier' };

/** Opt-in re-sending of validate after an unknown outcome (a timeout or a network failure). */
export interface ValidateRetry {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** Wait before each re-send. */
  readonly delayMs: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A validate 200: the details when the body has them; null when it is empty (or not the documented body). */
export function readValidation(answer: Answer): ValidateResult {
  const body = answer.body as Partial<ValidationResultBody> | undefined;
  return { status: 'validated', details: isRecord(body) && isRecord(body.results) ? body.results : null };
}

/** An answer that settles nothing: this attempt did not run, so the first one's outcome is still unknown. */
function isTransient(answer: Answer): boolean {
  return answer.status === 429 || answer.status >= 500;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * After an unanswered validate: re-send until an answer settles it. A 200 means the first attempt never landed;
 * `checkin.already.validated` means it did (validated-earlier); another refusal is thrown. Still unsettled after
 * the last attempt: OutcomeUnknownError.
 */
export async function validateWithRetry(
  send: () => Promise<Answer | NoAnswer>,
  first: NoAnswer,
  retry: ValidateRetry,
): Promise<ValidateResult> {
  let last: unknown = first.cause;
  for (let attempt = 2; attempt <= retry.attempts; attempt += 1) {
    await sleep(retry.delayMs);
    const result = await send();
    if (result instanceof NoAnswer) {
      last = result.cause;
      continue;
    }
    const requestId = result.headers.get('x-request-id') ?? undefined;
    if (result.status === 200) return readValidation(result);
    const error = errorFromAnswer(result.status, result.body, requestId);
    if (error.key === 'checkin.already.validated') return { status: 'validated-earlier' };
    if (!isTransient(result)) throw error;
    last = error;
  }
  throw new OutcomeUnknownError(first.reason, Math.max(1, retry.attempts), { cause: last });
}
