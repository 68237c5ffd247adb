import { useEffect, useState } from 'preact/hooks';
import { call, query } from './api.js';
import { formatCount, formatMoney } from './format.js';
import { formatTime, hourOf, startOfToday } from './clock.js';
import { BarChart } from './bar-chart.js';
import { StreamStatus, followEvents, type StreamEvent, type StreamState } from './event-stream.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';
import type { ValidationStats as Stats } from './wire.js';
import { t } from './strings/index.js';

const HOUR = 3_600_000;
const FEED_LENGTH = 50;

/** The last 24 whole hours up to the current one, and today since local midnight. */
async function loadFigures(session: Session) {
  const next = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
  const day = new Date(next - 24 * HOUR).toISOString();
  const [hours, today] = await Promise.all([
    call<Stats>(
      session,
      'GET',
      `/admin/v1/stats/validations${query({ from: day, to: new Date(next).toISOString() })}`,
    ),
    call<Stats>(
      session,
      'GET',
      `/admin/v1/stats/validations${query({ from: startOfToday(), to: new Date(next).toISOString() })}`,
    ),
  ]);
  return { hours, today };
}

function describe(event: StreamEvent): string {
  const data = event.data ?? {};
  const member = typeof data.platform_id === 'string' ? data.platform_id : '';
  const product = (data.product as { description?: string } | undefined)?.description;
  return [member, product].filter(Boolean).join(' · ');
}

/** What happens across the network as it happens: the event stream, today's counts and the last day's charts. */
export function LiveView({ session }: { session: Session }) {
  const figures = useData(() => loadFigures(session), [session]);
  const [feed, setFeed] = useState<StreamEvent[]>([]);
  const [stream, setStream] = useState<StreamState>('connecting');
  useEffect(
    () =>
      followEvents(
        session,
        '/admin/v1/events/stream',
        (event) => {
          setFeed((previous) => [event, ...previous].slice(0, FEED_LENGTH));
          if (event.type === 'checkin.validated') figures.reload();
        },
        setStream,
      ),
    [session],
  );
  const today = figures.value?.today;
  const hours = figures.value?.hours;
  return (
    <div class="live">
      <h1>{t.live.title}</h1>
      <p class="stream-state" role="status">
        <StreamStatus state={stream} />
      </p>
      {figures.error !== undefined && (
        <p role="alert" class="error">
          {figures.error}
        </p>
      )}
      <section aria-labelledby="today-title" class="counts">
        <h2 id="today-title">{t.live.today}</h2>
        <p>
          <span class="big" data-testid="validations-today">
            {today === undefined ? '…' : formatCount(today.count)}
          </span>{' '}
          {t.live.validations(today?.count ?? 0)}
        </p>
        <p>
          {today?.payouts.map((sum) => formatMoney(sum.payout_cents, sum.currency)).join(' + ') ||
            t.live.noPayouts}
        </p>
      </section>
      {hours !== undefined && (
        <div class="charts">
          <BarChart
            title={t.live.perHour}
            labels={hours.buckets.map((bucket) => hourOf(bucket.start))}
            values={hours.buckets.map((bucket) => bucket.count)}
          />
          <BarChart
            title={t.live.perGym}
            labels={hours.gyms.map((gym) => t.common.gym(gym.gym_id))}
            values={hours.gyms.map((gym) => gym.count)}
          />
        </div>
      )}
      <section aria-labelledby="feed-title">
        <h2 id="feed-title">{t.live.asItHappens}</h2>
        {feed.length === 0 && <p>{t.live.waitingForEvents}</p>}
        <ol class="feed" aria-live="polite">
          {feed.map((event) => (
            <li key={event.id}>
              <time dateTime={event.occurred_at}>{formatTime(event.occurred_at)}</time>{' '}
              <strong>{event.type}</strong>{' '}
              {event.gym_id === null ? t.live.network : t.common.gym(event.gym_id)}{' '}
              <span class="muted">{describe(event)}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
