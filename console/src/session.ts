/**
 * Who is signed in, kept in this tab's sessionStorage only (never a cookie, never localStorage): closing the tab
 * signs out, and no other site or tab can read it.
 */
export type Session =
  | { readonly kind: 'operator'; readonly token: string }
  | { readonly kind: 'desk'; readonly key: string; readonly gymId: number };

const STORAGE_KEY = 'gatehouse.session';

export function loadSession(): Session | undefined {
  const saved = sessionStorage.getItem(STORAGE_KEY);
  if (saved === null) return undefined;
  try {
    const session = JSON.parse(saved) as Session;
    return session.kind === 'operator' || session.kind === 'desk' ? session : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session === undefined) sessionStorage.removeItem(STORAGE_KEY);
  else sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

/** The headers every call of this session sends: the same API, and the same credentials, as any other client. */
export function authHeaders(session: Session): Record<string, string> {
  if (session.kind === 'operator') return { authorization: `Bearer ${session.token}` };
  return { authorization: `Bearer ${session.key}`, 'x-gym-id': String(session.gymId) };
}
