import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.js';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'error'; error: unknown; reload: () => void }
  | { state: 'ready'; data: T; reload: () => void };

/** Runs `load` when `deps` change; the latest call wins (an older answer arriving late is dropped). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    load().then(
      (data) => current && setResult({ state: 'ready', data, reload }),
      (error: unknown) => current && setResult({ state: 'error', error, reload }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return result;
}

export type Polled<T> = { data: T | null; failure: unknown; reload: () => void };

/**
 * Runs `load` now, then again `intervalMs` after each answer until `done(answer)` holds; the latest
 * answer is kept meanwhile. A failure stops it (`failure`, null when none) until `reload`, which also
 * reads again at once after a change the screen made. Stops when `deps` change or the component goes,
 * and no answer arriving after that changes its state.
 */
export function usePoll<T>(
  load: () => Promise<T>,
  done: (answer: T) => boolean,
  intervalMs: number,
  deps: unknown[],
): Polled<T> {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const reload = useCallback(() => {
    setFailure(null);
    setRound((n) => n + 1);
  }, []);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      load().then(
        (answer) => {
          if (!live) return;
          setData(answer);
          setFailure(null);
          if (!done(answer)) timer = setTimeout(() => void poll(), intervalMs);
        },
        (error: unknown) => live && setFailure(error),
      );
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...deps, round]);
  return { data, failure, reload };
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="error" role="alert">
      <p>{messageOf(error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** A labelled input with its field error from the API shown under it (and announced with it). */
export function Field(props: {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value: string;
  error?: string | undefined;
  autocomplete?: string;
  required?: boolean;
  onInput: (value: string) => void;
}) {
  const id = `field-${props.name}`;
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        // preact 11 types each input type's attributes apart; these three take the same ones here
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
      />
      {props.error && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Herald`;
  }, [title]);
  return (
    <section>
      <h1>{title}</h1>
      {children}
    </section>
  );
}

/** Copies `text` to the clipboard and says so (or why not) beside the button. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setSaid('Copied'),
      () => setSaid('Copy refused by the browser: select the text'),
    );
  return (
    <>
      <button type="button" class="copy" aria-label={label} onClick={() => void copy()}>
        Copy
      </button>
      <span class="muted" role="status">
        {said}
      </span>
    </>
  );
}

/**
 * A form's refusal: field errors on the fields, anything else above the form (`summary`: a line
 * above the form also when the refusal names fields).
 */
export function useRefusal(summary?: string) {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  return {
    fields,
    message,
    clear: () => {
      setFields({});
      setMessage(null);
    },
    show: (error: unknown, byField: Record<string, string>) => {
      setFields(byField);
      setMessage(Object.keys(byField).length ? (summary ?? null) : messageOf(error));
    },
  };
}

/**
 * A refusal's message above its form (`useRefusal`'s `message`), announced; nothing without one.
 * `children` follow the message in the same line (a link to act on it).
 */
export function RefusalAlert({ message, children }: { message: string | null; children?: ComponentChildren }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
      {children}
    </p>
  );
}
