import { call, query } from './api.js';
import { formatTime } from './clock.js';
import { ErrorNote } from './forms.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';
import type { DeliveryAttempt as Attempt } from './wire.js';

/** Attempts one expanded delivery shows: every one it has had, short of a retry storm. */
const LIMIT = 100;

/**
 * A delivery's attempts, oldest first: when, the receiver's answer (or why there was none), how long it took, the
 * start of what it answered and the body sent (gone once the payload is purged). Shown when the row is expanded.
 */
export function DeliveryAttempts({
  session,
  webhookId,
  deliveryId,
}: {
  session: Session;
  webhookId: number;
  deliveryId: number;
}) {
  const attempts = useData(
    () =>
      call<{ items: Attempt[] }>(
        session,
        'GET',
        `/admin/v1/webhooks/${webhookId}/deliveries/${deliveryId}/attempts${query({ limit: LIMIT })}`,
      ),
    [session, webhookId, deliveryId],
  );
  const items = attempts.value?.items;
  return (
    <div class="attempts">
      <ErrorNote error={attempts.error} />
      {items?.length === 0 && <p class="muted">No attempt yet.</p>}
      <ol aria-label={`Attempts of delivery ${deliveryId}`}>
        {items?.map((attempt) => (
          <li key={attempt.id}>
            <p>
              Attempt {attempt.attempt}, {formatTime(attempt.attempted_at)}:{' '}
              <strong>{attempt.status_code === null ? attempt.error : `HTTP ${attempt.status_code}`}</strong>{' '}
              in {attempt.duration_ms} ms
            </p>
            {attempt.response_excerpt !== null && attempt.response_excerpt !== '' && (
              <pre class="answer">{attempt.response_excerpt}</pre>
            )}
            <details>
              <summary>Body sent</summary>
              <pre>{attempt.request_body ?? 'purged with the event payload'}</pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
