import { useEffect, useRef, useState } from 'preact/hooks';
import type { DeskAnswer } from './desk-answer.js';
import { t } from './strings/index.js';

/**
 * The validation's answer over the whole screen, readable from across the desk; Enter or Escape dismisses it. An
 * amber answer offers **Try again** (focused) and tries again on its own when its time comes.
 */
export function AnswerScreen({
  answer,
  onDone,
  onRetry,
}: {
  answer: DeskAnswer;
  onDone: () => void;
  onRetry: () => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const [seconds, setSeconds] = useState(answer.kind === 'unsure' ? Math.ceil(answer.retryInMs / 1000) : 0);
  useEffect(() => button.current?.focus(), [answer]);
  useEffect(() => {
    if (answer.kind !== 'unsure') return undefined;
    const due = Date.now() + answer.retryInMs;
    setSeconds(Math.ceil(answer.retryInMs / 1000));
    const timer = setInterval(() => {
      const left = Math.ceil((due - Date.now()) / 1000);
      if (left > 0) setSeconds(left);
      else {
        clearInterval(timer);
        onRetry();
      }
    }, 250);
    return () => clearInterval(timer);
  }, [answer]);
  return (
    <div
      class={`answer answer-${answer.kind}`}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="answer-title"
      aria-describedby="answer-text"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <h2 id="answer-title">{t.answer[answer.kind]}</h2>
      <p id="answer-text" class="answer-text">
        {answer.text}
      </p>
      <p class="answer-member">
        {answer.name === undefined ? '' : `${answer.name} · `}
        {t.answer.member(answer.member)}
      </p>
      {answer.kind === 'unsure' && (
        <p class="answer-member" role="status">
          {t.answer.retryingIn(seconds)}
        </p>
      )}
      <div class="actions">
        {answer.kind === 'unsure' && (
          <button type="button" ref={button} onClick={onRetry}>
            {t.answer.tryAgain}
          </button>
        )}
        <button type="button" ref={answer.kind === 'unsure' ? undefined : button} onClick={onDone}>
          {t.answer.next}
        </button>
      </div>
    </div>
  );
}
