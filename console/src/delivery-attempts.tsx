import { call, query } from './api.js';
import { formatTime } from './clock.js';
import { ErrorNote } from './forms.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';
import type { DeliveryAttempt as Attempt } from './wire.js';
import { t } from './strings/index.js';

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
      {items?.length === 0 && <p class="muted">{t.deliveries.noAttemptYet}</p>}
      <ol aria-label={t.deliveries.attemptsOfDelivery(deliveryId)}>
        {items?.map((attempt) => (
          <li key={attempt.id}>
            <p>
              {t.deliveries.attempt(attempt.attempt, formatTime(attempt.attempted_at))}{' '}
              <strong>
                {attempt.status_code === null ? attempt.error : t.common.http(attempt.status_code)}
              </strong>{' '}
              {t.deliveries.took(attempt.duration_ms)}
            </p>
            {attempt.response_excerpt !== null && attempt.response_excerpt !== '' && (
              <pre class="answer">{attempt.response_excerpt}</pre>
            )}
            <details>
              <summary>{t.deliveries.bodySent}</summary>
              <pre>{attempt.request_body ?? t.deliveries.purged}</pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
