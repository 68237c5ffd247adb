import { useState } from 'preact/hooks';
import { call, messageOf } from './api.js';
import { formatTime } from './clock.js';
import { ActionForm, ConfirmAction, ErrorNote, OnceSecret, ScrollTable } from './forms.js';
import { may, type Session } from './session.js';
import { DeliveryLog, ids, list, type Webhook } from './delivery-log.js';
import { useData } from './use-data.js';
import type { TestOutcome, WebhookHealth as Health } from './wire.js';
import { formatPercent } from './format.js';
import { t } from './strings/index.js';

const answerOf = (attempt: { status_code: number | null; error: string | null }) =>
  attempt.status_code === null ? (attempt.error ?? t.webhooks.noAnswer) : t.common.http(attempt.status_code);

/** "delivered, HTTP 204, 12 ms" or "not delivered: HTTP 401, 9 ms": what a test event came to. */
const outcomeText = (outcome: TestOutcome, url: string) =>
  t.webhooks.tested(outcome.event_type, url, outcome.delivered, answerOf(outcome), outcome.duration_ms);

/** The endpoint's last attempt, 24-hour success rate and pending count, in one cell. */
function HealthCell({ health }: { health: Health | undefined }) {
  if (health === undefined) return <td />;
  const rate =
    health.success_rate_24h === null
      ? t.webhooks.noneIn24h
      : t.webhooks.rateIn24h(formatPercent(Math.round(health.success_rate_24h * 100)));
  const last =
    health.last_attempt === null
      ? t.webhooks.noAttemptYet
      : t.webhooks.last(formatTime(health.last_attempt.at), answerOf(health.last_attempt));
  return <td>{t.webhooks.health(last, rate, health.pending)}</td>;
}

/** A partner's webhook endpoints: register (the secret shown once), change, rotate, enable, remove, and the log. */
export function WebhooksPanel({
  session,
  partnerId,
  partnerName,
}: {
  session: Session;
  partnerId: number;
  partnerName: string;
}) {
  const webhooks = useData(
    async () =>
      (
        await call<{ items: Webhook[] }>(
          session,
          'GET',
          `/admin/v1/partners/${partnerId}/webhooks?limit=1000`,
        )
      ).items,
    [session, partnerId],
  );
  const health = useData(
    async () =>
      (await call<{ webhooks: Health[] }>(session, 'GET', `/admin/v1/partners/${partnerId}/integration`))
        .webhooks,
    [session, partnerId],
  );
  const [tested, setTested] = useState<string>();
  const [secret, setSecret] = useState<string>();
  const [open, setOpen] = useState<number>();
  const [error, setError] = useState<string>();
  const mayAct = may(session, 'webhooks');
  const act = async (work: () => Promise<void>) => {
    try {
      await work();
      setError(undefined);
      webhooks.reload();
      health.reload();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  const rotate = (webhook: Webhook) =>
    act(async () => {
      const made = await call<{ secret: string }>(session, 'POST', `/admin/v1/webhooks/${webhook.id}/secret`);
      setSecret(made.secret);
    });
  const test = (webhook: Webhook) =>
    act(async () => {
      setTested(undefined);
      const outcome = await call<TestOutcome>(session, 'POST', `/admin/v1/webhooks/${webhook.id}/test`);
      setTested(outcomeText(outcome, webhook.url));
      health.reload();
    });
  const remove = async (webhook: Webhook) => {
    await call(session, 'DELETE', `/admin/v1/webhooks/${webhook.id}`);
    webhooks.reload();
    health.reload();
  };
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t.webhooks.title(partnerName)}</h2>
      <ErrorNote error={webhooks.error ?? health.error ?? error} />
      {tested !== undefined && (
        <p role="status" class="note" data-testid="test-outcome">
          {tested}
        </p>
      )}
      {secret !== undefined && (
        <OnceSecret
          what={t.webhooks.what}
          why={t.webhooks.why}
          secret={secret}
          testId="webhook-secret"
          onDone={() => setSecret(undefined)}
        />
      )}
      <ScrollTable label={t.webhooks.table}>
        <thead>
          <tr>
            <th scope="col">{t.webhooks.url}</th>
            <th scope="col">{t.webhooks.events}</th>
            <th scope="col">{t.webhooks.gyms}</th>
            <th scope="col">{t.webhooks.status}</th>
            <th scope="col">{t.webhooks.healthColumn}</th>
            <th scope="col">
              <span class="visually-hidden">{t.common.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {webhooks.value?.map((webhook) => (
            <tr key={webhook.id}>
              <td>
                <code>{webhook.url}</code>
              </td>
              <td>{webhook.event_types?.join(', ') ?? t.common.all}</td>
              <td>{webhook.gym_ids?.join(', ') ?? t.common.all}</td>
              <td>
                {webhook.status}
                {webhook.disabled_reason === null ? '' : ` (${webhook.disabled_reason})`}
              </td>
              <HealthCell health={health.value?.find((candidate) => candidate.id === webhook.id)} />
              <td class="actions">
                <button
                  type="button"
                  aria-expanded={open === webhook.id}
                  aria-label={t.webhooks.deliveriesTo(webhook.url)}
                  onClick={() => setOpen(open === webhook.id ? undefined : webhook.id)}
                >
                  {t.webhooks.deliveries}
                </button>
                {mayAct && (
                  <>
                    {webhook.status === 'disabled' && (
                      <button
                        type="button"
                        onClick={() =>
                          void act(() => call(session, 'POST', `/admin/v1/webhooks/${webhook.id}/enable`))
                        }
                      >
                        {t.webhooks.enable}
                      </button>
                    )}
                    <button
                      type="button"
                      aria-label={t.webhooks.sendTestTo(webhook.url)}
                      onClick={() => void test(webhook)}
                    >
                      {t.webhooks.sendTest}
                    </button>
                    <button
                      type="button"
                      aria-label={t.webhooks.rotateOf(webhook.url)}
                      onClick={() => void rotate(webhook)}
                    >
                      {t.webhooks.rotate}
                    </button>
                    <ConfirmAction
                      label={t.webhooks.remove}
                      name={t.webhooks.removeOf(webhook.url)}
                      question={t.webhooks.removeQuestion(webhook.url)}
                      act={() => remove(webhook)}
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {webhooks.value
        ?.filter((webhook) => webhook.id === open)
        .map((webhook) => (
          <DeliveryLog key={webhook.id} session={session} webhook={webhook} onChanged={webhooks.reload} />
        ))}
      {mayAct && (
        <ActionForm
          title={t.webhooks.register}
          submitLabel={t.webhooks.add}
          action={async ({ url, events, gyms, timeout }) => {
            const made = await call<{ secret: string }>(
              session,
              'POST',
              `/admin/v1/partners/${partnerId}/webhooks`,
              {
                url,
                event_types: list(events),
                gym_ids: ids(gyms),
                ...(timeout ? { timeout_ms: Number(timeout) } : {}),
              },
            );
            setSecret(made.secret);
            webhooks.reload();
          }}
        >
          <label>
            {t.webhooks.receiver}
            <input name="url" type="url" required maxLength={2000} />
          </label>
          <label>
            {t.webhooks.onlyEventsOptional}
            <input name="events" placeholder={t.webhooks.eventsPlaceholder} />
          </label>
          <label>
            {t.webhooks.onlyGymsOptional}
            <input name="gyms" pattern="[0-9, ]*" />
          </label>
          <label>
            {t.webhooks.timeoutOptional}
            <input name="timeout" inputMode="numeric" pattern="[0-9]+" />
          </label>
        </ActionForm>
      )}
    </section>
  );
}
