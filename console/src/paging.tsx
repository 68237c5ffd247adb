import { useState } from 'preact/hooks';
import { call } from './api.js';
import type { Session } from './session.js';
import { useData } from './use-data.js';
import { t, type Strings } from './strings/index.js';

/** A page of an operator list: `{items, next_cursor}`. */
export interface Listed<T> {
  readonly items: T[];
  readonly next_cursor: string | null;
}

/** Reads one page of an operator list. */
export const operatorPage = <T,>(session: Session, url: string) => call<Listed<T>>(session, 'GET', url);

/**
 * A list newest first (`order=desc`), a page at a time: `path` answers the URL of the page at a cursor (none: the
 * newest). A new `path` for the first page (another filter, another record) starts again from the newest. `read`
 * turns another API's page into `{items, next_cursor}` (the partner API's, for the desk).
 */
export function useNewestFirst<T>(
  session: Session,
  path: (cursor: string | undefined) => string,
  read: (session: Session, url: string) => Promise<Listed<T>> = operatorPage,
) {
  const first = path(undefined);
  const [at, setAt] = useState<{ first: string; cursor?: string }>({ first });
  const cursor = at.first === first ? at.cursor : undefined;
  const page = useData(() => read(session, path(cursor)), [session, first, cursor]);
  const next = page.value?.next_cursor ?? undefined;
  return {
    ...page,
    items: page.value?.items,
    /** The page shown is not the newest. */
    paged: cursor !== undefined,
    older: next === undefined ? undefined : () => setAt({ first, cursor: next }),
    newest: () => setAt({ first }),
  };
}

/** The buttons under a list newest first: back to the newest page, and on to older entries when there are any. */
export function PageButtons({
  list,
  holds,
}: {
  list: ReturnType<typeof useNewestFirst>;
  /** What the list holds, for the buttons' words ("Newest keys", "Older keys"). */
  holds: keyof Strings['pages']['newer'];
}) {
  if (!list.paged && list.older === undefined) return null;
  return (
    <div class="actions">
      {list.paged && (
        <button type="button" class="quiet" onClick={list.newest}>
          {t.pages.newer[holds]}
        </button>
      )}
      {list.older !== undefined && (
        <button type="button" onClick={list.older}>
          {t.pages.older[holds]}
        </button>
      )}
    </div>
  );
}
