/**
 * Who is signed in, kept in this tab's sessionStorage only (never a cookie, never localStorage): closing the tab
 * signs out, and no other site or tab can read it.
 */
export type Session =
  | {
      readonly kind: 'operator';
      readonly token: string;
      /** Who the API says the token is (`GET /admin/v1/me`), read once at sign-in. */
      readonly name: string | null;
      readonly role: string;
      readonly permissions: readonly string[];
      /** The network's time zone: default periods are read there (a session saved before it was asked: UTC). */
      readonly timezone?: string;
    }
  | { readonly kind: 'desk'; readonly key: string; readonly gymId: number };

const STORAGE_KEY = 'gatehouse.session';

export function loadSession(): Session | undefined {
  const saved = sessionStorage.getItem(STORAGE_KEY);
  if (saved === null) return undefined;
  try {
    const session = JSON.parse(saved) as Session;
    if (session.kind === 'operator') return Array.isArray(session.permissions) ? session : undefined;
    return session.kind === 'desk' ? session : undefined;
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

/**
 * Whether the signed-in operator's role may do this (a permission of `GET /admin/v1/me`): the views hide what it may
 * not. The API refuses it anyway; hiding only spares the operator a button that can only fail.
 */
export function may(session: Session, permission: string): boolean {
  return session.kind === 'operator' && session.permissions.includes(permission);
}

/** The network's time zone, in which the views show dates (UTC for a session saved before it was asked). */
export const networkZone = (session: Session): string =>
  (session.kind === 'operator' ? session.timezone : undefined) ?? 'UTC';
