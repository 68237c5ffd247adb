import { useEffect, useState } from 'preact/hooks';
import { query } from './api.js';
import { AuditView } from './audit-view.js';
import { DeskView } from './desk-view.js';
import { LiveView } from './live-view.js';
import { MoneyView } from './money-view.js';
import { NetworkView } from './network-view.js';
import { OperatorsView } from './operators-view.js';
import { showTimesIn } from './clock.js';
import { SearchView } from './search-view.js';
import { loadSession, may, networkZone, saveSession, type Session } from './session.js';
import { SignIn } from './sign-in.js';
import { t } from './strings/index.js';

const OPERATOR_VIEWS = [
  { hash: '#/live', label: t.app.live },
  { hash: '#/network', label: t.app.network },
  { hash: '#/money', label: t.app.money },
  { hash: '#/audit', label: t.app.audit },
  { hash: '#/search', label: t.app.search },
  { hash: '#/operators', label: t.app.operators },
] as const;

/** A view the session's role can use: Operators for those who manage operators or erase members. */
const shows = (session: Session, hash: string) =>
  hash !== '#/operators' || may(session, 'operators') || may(session, 'members');

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

/** A view's place and what it shows, as the URL says: `#/network?partner=12` (a deep link one can share or reload). */
function parseHash(hash: string): { path: string; params: URLSearchParams } {
  const [path = '', search = ''] = hash.split('?', 2);
  return { path, params: new URLSearchParams(search) };
}

function OperatorView({
  session,
  hash,
  params,
}: {
  session: Session;
  hash: string;
  params: URLSearchParams;
}) {
  if (hash === '#/network') {
    const partner = Number(params.get('partner') ?? Number.NaN);
    const named = params.get('name') || undefined;
    const link = (next: { partner?: number; name?: string }) => (location.hash = `#/network${query(next)}`);
    return (
      <NetworkView
        session={session}
        selected={Number.isInteger(partner) ? partner : undefined}
        onSelect={(id) => link({ name: named, partner: id })}
        named={named}
        onFilter={(name) => link({ name, partner: Number.isInteger(partner) ? partner : undefined })}
      />
    );
  }
  if (hash === '#/search') {
    return (
      <SearchView
        session={session}
        member={params.get('member') ?? undefined}
        onSearch={(member) => (location.hash = `#/search?${new URLSearchParams({ member })}`)}
      />
    );
  }
  if (hash === '#/money') return <MoneyView session={session} />;
  if (hash === '#/audit') return <AuditView session={session} />;
  if (hash === '#/operators' && shows(session, hash)) return <OperatorsView session={session} />;
  return <LiveView session={session} />;
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  // Before any view renders its times or asks for "today".
  showTimesIn(session === undefined ? 'UTC' : networkZone(session));
  const { path, params } = parseHash(useHash());
  const signIn = (next: Session | undefined) => {
    saveSession(next);
    setSession(next);
    // An operator who opened a deep link lands where it pointed.
    const linked = OPERATOR_VIEWS.some((view) => view.hash === parseHash(location.hash).path);
    if (next === undefined) location.hash = '';
    else if (next.kind === 'desk') location.hash = '#/desk';
    else if (!linked) location.hash = '#/live';
  };
  const current = OPERATOR_VIEWS.find((view) => view.hash === path) ?? OPERATOR_VIEWS[0];
  return (
    <>
      <header class="top">
        <p class="brand">{t.app.brand}</p>
        {session?.kind === 'operator' && (
          <nav aria-label={t.app.views}>
            <ul>
              {OPERATOR_VIEWS.filter((view) => shows(session, view.hash)).map((view) => (
                <li key={view.hash}>
                  <a href={view.hash} aria-current={view === current ? 'page' : undefined}>
                    {view.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {session?.kind === 'operator' && (
          <p class="who muted" data-testid="signed-in-as">
            {session.name ?? t.app.adminToken} · {session.role}
          </p>
        )}
        {session !== undefined && (
          <button type="button" class="quiet" onClick={() => signIn(undefined)}>
            {t.app.signOut}
          </button>
        )}
      </header>
      <main>
        {session === undefined ? (
          <SignIn onSignedIn={signIn} />
        ) : session.kind === 'desk' ? (
          <DeskView session={session} />
        ) : (
          <OperatorView session={session} hash={current.hash} params={params} />
        )}
      </main>
    </>
  );
}
