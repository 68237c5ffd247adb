import { useState } from 'preact/hooks';
import { call, messageOf, query } from './api.js';
import { formatTime } from './clock.js';
import { ActionForm, ErrorNote, ScrollTable } from './forms.js';
import { DeliveryAttempts } from './delivery-attempts.js';
import { PageButtons, useNewestFirst } from './paging.js';
import { may, type Session } from './session.js';
import type { Delivery, Webhook } from './wire.js';
import { formatCount } from './format.js';
import { t } from './strings/index.js';
export type { Webhook } from './wire.js';

/** The last attempt's answer as the log keeps it: the receiver's status, or why there was none. */
const lastAnswer = (delivery: Delivery) =>
  delivery.last_status_code === null ? (delivery.last_error ?? '') : t.common.http(delivery.last_status_code);

/** Deliveries a page shows, newest first. */
const PAGE = 100;

/** "a, b c" → ["a", "b", "c"]; empty → null (every one). */
export const list = (text: string | undefined) => {
  const parts = (text ?? '').split(/[\s,]+/).filter(Boolean);
  return parts.length === 0 ? null : parts;
};
export const ids = (text: string | undefined) => list(text)?.map(Number) ?? null;

/**
 * One endpoint's deliveries newest first, a page at a time, with what the log keeps of each (its attempts, the last
 * one's time and answer, the next one's time), a retry per delivery and a recovery; and a form to change the endpoint.
 */
export function DeliveryLog({
  session,
  webhook,
  onChanged,
}: {
  session: Session;
  webhook: Webhook;
  onChanged: () => void;
}) {
  const deliveries = useNewestFirst<Delivery>(
    session,
    (cursor) => `/admin/v1/webhooks/${webhook.id}/deliveries${query({ order: 'desc', limit: PAGE, cursor })}`,
  );
  const [error, setError] = useState<string>();
  const [expanded, setExpanded] = useState<number>();
  const mayAct = may(session, 'webhooks');
  const retry = async (delivery: Delivery) => {
    try {
      await call(session, 'POST', `/admin/v1/deliveries/${delivery.id}/retry`);
      setError(undefined);
      deliveries.reload();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <section aria-labelledby={`log-${webhook.id}`}>
      <h3 id={`log-${webhook.id}`}>{t.webhooks.deliveriesTo(webhook.url)}</h3>
      <ErrorNote error={deliveries.error ?? error} />
      <button
        type="button"
        class="quiet"
        onClick={() => {
          deliveries.newest();
          deliveries.reload();
        }}
      >
        {t.deliveries.refresh}
      </button>
      <ScrollTable label={t.deliveries.table}>
        <thead>
          <tr>
            <th scope="col">{t.deliveries.created}</th>
            <th scope="col">{t.deliveries.event}</th>
            <th scope="col">{t.deliveries.status}</th>
            <th scope="col">{t.deliveries.attempts}</th>
            <th scope="col">{t.deliveries.lastAttempt}</th>
            <th scope="col">{t.deliveries.lastAnswer}</th>
            <th scope="col">{t.deliveries.nextAttempt}</th>
            <th scope="col">
              <span class="visually-hidden">{t.common.action}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.items?.flatMap((delivery) => [
            <tr key={delivery.id}>
              <td>
                <button
                  type="button"
                  class="quiet"
                  aria-expanded={expanded === delivery.id}
                  aria-label={t.deliveries.attemptsOf(delivery.event_id)}
                  onClick={() => setExpanded(expanded === delivery.id ? undefined : delivery.id)}
                >
                  {expanded === delivery.id ? '▾' : '▸'}
                </button>{' '}
                {formatTime(delivery.created_at)}
              </td>
              <td>
                {delivery.event_type} <code class="muted">{delivery.event_id}</code>
              </td>
              <td>{delivery.status}</td>
              <td>{formatCount(delivery.attempts)}</td>
              <td>{delivery.last_attempt_at === null ? '' : formatTime(delivery.last_attempt_at)}</td>
              <td>{lastAnswer(delivery)}</td>
              <td>{delivery.next_attempt_at === null ? '' : formatTime(delivery.next_attempt_at)}</td>
              <td>
                {mayAct && delivery.status !== 'pending' && (
                  <button
                    type="button"
                    aria-label={t.deliveries.sendAgainOf(delivery.event_id)}
                    onClick={() => void retry(delivery)}
                  >
                    {t.deliveries.sendAgain}
                  </button>
                )}
              </td>
            </tr>,
            expanded === delivery.id && (
              <tr key={`${delivery.id}-attempts`}>
                <td colSpan={8}>
                  <DeliveryAttempts session={session} webhookId={webhook.id} deliveryId={delivery.id} />
                </td>
              </tr>
            ),
          ])}
        </tbody>
      </ScrollTable>
      <PageButtons list={deliveries} holds="deliveries" />
      {mayAct && (
        <ActionForm
          title={t.deliveries.change(webhook.url)}
          submitLabel={t.deliveries.save}
          action={async ({ url, events, gyms, timeout }) => {
            await call(session, 'PATCH', `/admin/v1/webhooks/${webhook.id}`, {
              url,
              event_types: list(events),
              gym_ids: ids(gyms),
              timeout_ms: Number(timeout),
            });
            onChanged();
          }}
        >
          <label>
            {t.deliveries.receiver}
            <input name="url" type="url" required maxLength={2000} defaultValue={webhook.url} />
          </label>
          <label>
            {t.deliveries.onlyEvents}
            <input name="events" defaultValue={webhook.event_types?.join(', ') ?? ''} />
          </label>
          <label>
            {t.deliveries.onlyGyms}
            <input name="gyms" pattern="[0-9, ]*" defaultValue={webhook.gym_ids?.join(', ') ?? ''} />
          </label>
          <label>
            {t.deliveries.timeout}
            <input
              name="timeout"
              inputMode="numeric"
              pattern="[0-9]+"
              required
              defaultValue={String(webhook.timeout_ms)}
            />
          </label>
        </ActionForm>
      )}
      {mayAct && (
        <ActionForm
          title={t.deliveries.recover}
          submitLabel={t.deliveries.recoverButton}
          action={async ({ since }) => {
            await call(session, 'POST', `/admin/v1/webhooks/${webhook.id}/recover`, {
              since: new Date(since ?? '').toISOString(),
            });
            deliveries.reload();
            onChanged();
          }}
        >
          <label>
            {t.deliveries.failedSince}
            <input name="since" type="datetime-local" required />
          </label>
        </ActionForm>
      )}
    </section>
  );
}
