import { useEffect, useRef, useState } from 'preact/hooks';
import { call, query } from './api.js';
import { formatTime, startOfToday } from './clock.js';
import { AnswerScreen } from './answer.js';
import { ANSWER_TIMEOUT_MS, answerOf, type DeskAnswer } from './desk-answer.js';
import { StreamStatus, followEvents, type StreamState } from './event-stream.js';
import { ScrollTable, formFields } from './forms.js';
import { MemberScanner } from './member-scanner.js';
import { memberName } from './member-name.js';
import type { Session } from './session.js';
import { PageButtons, useNewestFirst, type Listed } from './paging.js';
import { useData } from './use-data.js';
import type { DeskVisit as Visit, ValidationAnswer as Validated, WaitingCheckin as Waiting } from './wire.js';
import { t } from './strings/index.js';

type DeskSession = Extract<Session, { kind: 'desk' }>;

/** A page of the partner API's feed as a list newest first: no more pages once `has_more` is false. */
async function partnerPage<T>(session: Session, url: string): Promise<Listed<T>> {
  const page = await call<{ results: T[]; next_cursor: string; has_more: boolean }>(session, 'GET', url);
  return { items: page.results, next_cursor: page.has_more ? page.next_cursor : null };
}

/** A front desk: who is waiting, a member id to validate, the answer on the whole screen, today's visits. */
export function DeskView({ session }: { session: DeskSession }) {
  const waiting = useData(
    async () =>
      (await call<{ results: Waiting[] }>(session, 'GET', '/access/v1/checkins?status=pending')).results,
    [session],
  );
  // Today's visits newest first, a page at a time; reversal entries are not second validations.
  const today = useNewestFirst<Visit>(
    session,
    (cursor) =>
      `/access/v1/transactions${query({ from: startOfToday(), order: 'desc', kind: 'visit', cursor })}`,
    partnerPage,
  );
  const [stream, setStream] = useState<StreamState>('connecting');
  const lastState = useRef<StreamState>('connecting');
  // A check-in leaves the list at its expiry (expiry makes no event): the list is read again then.
  useEffect(() => {
    const next = Math.min(...(waiting.value ?? []).map((checkin) => Date.parse(checkin.expires_at)));
    if (!Number.isFinite(next)) return undefined;
    const timer = setTimeout(() => waiting.reload(), Math.max(0, next - Date.now()) + 500);
    return () => clearTimeout(timer);
  }, [waiting.value]);
  const [answer, setAnswer] = useState<DeskAnswer>();
  /** What the amber answer would send again. */
  const lastTry = useRef<{ member: string; customCode?: string } | undefined>(undefined);
  const memberInput = useRef<HTMLInputElement>(null);

  useEffect(
    () =>
      followEvents(
        session,
        '/access/v1/events/stream',
        (event) => {
          if (event.type.startsWith('checkin.')) {
            waiting.reload();
            if (event.type === 'checkin.validated') today.reload();
          }
        },
        (state) => {
          // After a reconnect, what happened meanwhile is read again: the stream resumes, but the lists were stale.
          if (state === 'live' && lastState.current === 'reconnecting') {
            waiting.reload();
            today.reload();
          }
          lastState.current = state;
          setStream(state);
        },
      ),
    [session],
  );

  async function validate(member: string, customCode?: string, retrying = false) {
    lastTry.current = { member, ...(customCode ? { customCode } : {}) };
    const name = memberName(waiting.value?.find((checkin) => checkin.platform_id === member)?.member);
    try {
      const body = { platform_id: member, ...(customCode ? { custom_code: customCode } : {}) };
      const signal = AbortSignal.timeout(ANSWER_TIMEOUT_MS);
      const result = await call<Validated>(session, 'POST', '/access/v1/validate', body, signal);
      setAnswer({ kind: 'valid', member, text: result.results.gym.product.description, name });
    } catch (caught) {
      setAnswer({ ...answerOf(member, caught, retrying), name });
    }
    waiting.reload();
    today.reload();
  }
  const retry = () => {
    const last = lastTry.current;
    if (last !== undefined) void validate(last.member, last.customCode, true);
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = formFields(form);
    void validate(fields.member ?? '', fields.code);
    form.reset();
  };
  const done = () => {
    lastTry.current = undefined;
    setAnswer(undefined);
    memberInput.current?.focus();
  };

  return (
    <div class="desk">
      <h1>{t.desk.title(session.gymId)}</h1>
      <p class="stream-state" role="status">
        <StreamStatus state={stream} />
      </p>
      <form class="validate-form" onSubmit={submit} aria-labelledby="validate-title">
        <h2 id="validate-title">{t.desk.validateTitle}</h2>
        <label>
          {t.desk.memberId}
          <input
            ref={memberInput}
            name="member"
            class="member-input"
            inputMode="numeric"
            autoComplete="off"
            pattern="[0-9]{13}"
            title={t.desk.thirteenDigits}
            required
            autoFocus
          />
        </label>
        <label>
          {t.desk.customCode}
          <input name="code" maxLength={13} autoComplete="off" />
        </label>
        <div class="actions">
          <button type="submit" class="primary">
            {t.desk.validate}
          </button>
          <MemberScanner
            onScanned={(member) => {
              if (memberInput.current !== null) memberInput.current.value = member;
            }}
          />
        </div>
      </form>
      <section aria-labelledby="waiting-title">
        <h2 id="waiting-title">{t.desk.waiting}</h2>
        {waiting.error !== undefined && (
          <p role="alert" class="error">
            {waiting.error}
          </p>
        )}
        {waiting.value?.length === 0 && <p>{t.desk.noOneWaiting}</p>}
        <ul class="waiting">
          {waiting.value?.map((checkin) => (
            <li key={checkin.id}>
              <span class="member">{checkin.platform_id}</span>
              {memberName(checkin.member) !== undefined && <strong>{memberName(checkin.member)}</strong>}
              <span>{checkin.product.description}</span>
              <span class="muted">{t.desk.since(formatTime(checkin.checked_in_at))}</span>
              <button
                type="button"
                aria-label={t.desk.validateMember(checkin.platform_id)}
                onClick={() => void validate(checkin.platform_id)}
              >
                {t.desk.validate}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="today-title">
        <h2 id="today-title">{t.desk.today}</h2>
        {today.error !== undefined && (
          <p role="alert" class="error">
            {today.error}
          </p>
        )}
        {today.items?.length === 0 && !today.paged && <p>{t.desk.noneToday}</p>}
        {today.items !== undefined && today.items.length > 0 && (
          <ScrollTable label={t.desk.todayTable}>
            <thead>
              <tr>
                <th scope="col">{t.desk.time}</th>
                <th scope="col">{t.desk.member}</th>
                <th scope="col">{t.desk.product}</th>
              </tr>
            </thead>
            <tbody>
              {today.items.map((visit) => (
                <tr key={visit.id}>
                  <td>{formatTime(visit.validated_at)}</td>
                  <td>{visit.platform_id}</td>
                  <td>{visit.product.description}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        <PageButtons list={today} holds="visits" />
      </section>
      {answer !== undefined && <AnswerScreen answer={answer} onDone={done} onRetry={retry} />}
    </div>
  );
}
