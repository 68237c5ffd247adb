import { ApiError } from './api.js';
import { t } from './strings/index.js';

/**
 * The desk's answer to a validation, one of three and never two: green (validated), red (the API refused the
 * check-in, with its message) and amber when there is no answer to trust — gatehouse could not be reached, was busy
 * (429), unavailable (5xx) or did not answer in time. An outage is never shown as a refusal: the member may have
 * paid, and the check-in is still there to validate.
 */
export type DeskAnswer = (
  | { readonly kind: 'valid'; readonly member: string; readonly text: string }
  | { readonly kind: 'refused'; readonly member: string; readonly text: string }
  | {
      readonly kind: 'unsure';
      readonly member: string;
      readonly text: string;
      /** When the desk tries again on its own. */
      readonly retryInMs: number;
    }
) & {
  /** The member's first name and last initial, when the member app sent them. */
  readonly name?: string | undefined;
};

/** How long the desk waits for an answer before it calls the validation unconfirmed. */
export const ANSWER_TIMEOUT_MS = 10_000;
/** When to try again on its own without a Retry-After. */
const DEFAULT_RETRY_MS = 5_000;

const ALREADY_VALIDATED = 'checkin.already.validated';

/** What the desk shows after a failed validation; `retrying`: this was a retry after an amber answer. */
export function answerOf(member: string, caught: unknown, retrying: boolean): DeskAnswer {
  const retryInMs = (seconds: number | undefined) =>
    seconds === undefined ? DEFAULT_RETRY_MS : Math.max(1, seconds) * 1000;
  if (caught instanceof ApiError) {
    // The first try went through before its answer was lost: the visit is there.
    if (retrying && caught.key === ALREADY_VALIDATED) {
      return { kind: 'valid', member, text: t.answer.earlierWentThrough };
    }
    if (caught.status === 429) {
      return {
        kind: 'unsure',
        member,
        text: t.answer.busy,
        retryInMs: retryInMs(caught.retryAfter),
      };
    }
    if (caught.status >= 500) {
      return {
        kind: 'unsure',
        member,
        text: t.answer.notConfirmed,
        retryInMs: retryInMs(caught.retryAfter),
      };
    }
    if (caught.status === 401) {
      return {
        kind: 'refused',
        member,
        text: t.answer.keyRefused,
      };
    }
    if (caught.status === 403) {
      return {
        kind: 'refused',
        member,
        text: t.answer.keyNotForGym,
      };
    }
    return { kind: 'refused', member, text: caught.message };
  }
  if (caught instanceof DOMException && (caught.name === 'TimeoutError' || caught.name === 'AbortError')) {
    return {
      kind: 'unsure',
      member,
      text: t.answer.noAnswerWithin(ANSWER_TIMEOUT_MS / 1000),
      retryInMs: DEFAULT_RETRY_MS,
    };
  }
  // fetch rejects only when no answer came at all: the server was not reached. The browser's own words for it
  // ("Failed to fetch", "Load failed") say nothing to a clerk, so they are left out.
  return {
    kind: 'unsure',
    member,
    text: t.answer.unreachable,
    retryInMs: DEFAULT_RETRY_MS,
  };
}
