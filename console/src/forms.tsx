import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from './api.js';
import { t } from './strings/index.js';

/** A submitted form's text fields, trimmed (files, which these forms never hold, are left out). */
export function formFields(form: EventTarget | null): Record<string, string> {
  const entries = [...new FormData(form as HTMLFormElement)];
  return Object.fromEntries(
    entries.flatMap(([name, value]) => (typeof value === 'string' ? [[name, value.trim()]] : [])),
  );
}

/** A form that sends its fields to `action`, shows the API's refusal under it, and resets on success. */
export function ActionForm({
  title,
  submitLabel,
  action,
  children,
}: {
  title: string;
  submitLabel: string;
  action: (fields: Record<string, string>) => Promise<void>;
  children: ComponentChildren;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = formFields(form);
    setBusy(true);
    try {
      await action(fields);
      setError(undefined);
      form.reset();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="action-form" onSubmit={(event) => void submit(event)} aria-label={title}>
      {children}
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
      {error !== undefined && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}

export function ErrorNote({ error }: { error: string | undefined }) {
  return error === undefined ? null : (
    <p role="alert" class="error">
      {error}
    </p>
  );
}

/** A table that scrolls sideways on a narrow screen, reachable and scrollable with the keyboard too. */
export function ScrollTable({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

/** A secret the API returns once (a key, a signing secret): shown, with a copy button, until it is stored. */
export function OnceSecret({
  what,
  why,
  secret,
  testId,
  onDone,
}: {
  what: string;
  why: string;
  secret: string;
  testId: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="secret" role="status">
      <p>
        <strong>{t.common.copyNow(what)}</strong> {why}
      </p>
      <code data-testid={testId}>{secret}</code>
      <button
        type="button"
        onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
      >
        {copied ? t.common.copied : t.common.copy}
      </button>
      <button type="button" class="quiet" onClick={onDone}>
        {t.common.stored}
      </button>
    </div>
  );
}

/**
 * A destructive action, styled as one, that asks in the page before it acts: the first click shows what will
 * happen with a **Yes, …** button (focused) and **Cancel**; the API's refusal shows beside it.
 */
export function ConfirmAction({
  label,
  name,
  question,
  act,
}: {
  /** The button's text ("Revoke"), and its accessible name when `name` is not given. */
  label: string;
  name?: string;
  /** What will happen, in a sentence. */
  question: string;
  act: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  const confirmed = async () => {
    setAsking(false);
    try {
      await act();
      setError(undefined);
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <>
      {asking ? (
        <span class="confirm" role="group" aria-label={t.common.confirm(name ?? label)}>
          <span>{question}</span>
          <button type="button" class="danger" ref={yes} onClick={() => void confirmed()}>
            {t.common.yes(label)}
          </button>
          <button type="button" class="quiet" onClick={() => setAsking(false)}>
            {t.common.cancel}
          </button>
        </span>
      ) : (
        <button type="button" class="danger" aria-label={name} onClick={() => setAsking(true)}>
          {label}
        </button>
      )}
      <ErrorNote error={error} />
    </>
  );
}
