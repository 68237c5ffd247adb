import { useEffect, useRef } from 'preact/hooks';

export interface Answer {
  readonly ok: boolean;
  readonly member: string;
  /** The product on success, the API's message otherwise. */
  readonly text: string;
}

/** The validation's answer over the whole screen, readable from across the desk; Enter or Escape dismisses it. */
export function AnswerScreen({ answer, onDone }: { answer: Answer; onDone: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div
      class={`answer ${answer.ok ? 'answer-ok' : 'answer-refused'}`}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="answer-title"
      aria-describedby="answer-text"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <h2 id="answer-title">{answer.ok ? 'Valid' : 'Refused'}</h2>
      <p id="answer-text" class="answer-text">
        {answer.text}
      </p>
      <p class="answer-member">Member {answer.member}</p>
      <button type="button" ref={button} onClick={onDone}>
        Next member
      </button>
    </div>
  );
}
