import { useState } from 'preact/hooks';
import { call, messageOf } from './api.js';
import { formFields } from './forms.js';
import type { Session } from './session.js';
import type { KeyGym, Me } from './wire.js';
import { t } from './strings/index.js';

/** Both ways in. Each is checked against the API before anything is shown: a refused credential shows nothing. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  return (
    <div class="sign-in">
      <h1>{t.signIn.title}</h1>
      <div class="cards">
        <OperatorSignIn onSignedIn={onSignedIn} />
        <DeskSignIn onSignedIn={onSignedIn} />
      </div>
    </div>
  );
}

function OperatorSignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const token = formFields(event.currentTarget).token ?? '';
    try {
      const me = await call<Me>(
        { kind: 'operator', token, name: null, role: '', permissions: [] },
        'GET',
        '/admin/v1/me',
      );
      if (!me.permissions.includes('read')) {
        setError(t.signIn.roleMayNotRead(me.role));
        return;
      }
      onSignedIn({
        kind: 'operator',
        token,
        name: me.name,
        role: me.role,
        permissions: me.permissions,
        timezone: me.timezone,
      });
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <form class="card" onSubmit={(event) => void submit(event)} aria-labelledby="operator-title">
      <h2 id="operator-title">{t.signIn.operator}</h2>
      <label>
        {t.signIn.operatorToken}
        <input name="token" type="password" required autoComplete="off" />
      </label>
      {error !== undefined && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <button type="submit">{t.signIn.asOperator}</button>
    </form>
  );
}

/** The gyms a key may act on, from its integration check (no X-Gym-Id needed); none when the key is refused. */
async function gymsOfKey(key: string): Promise<KeyGym[]> {
  if (key === '') return [];
  const response = await fetch('/access/v1/integration', {
    headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
  }).catch(() => undefined);
  if (response?.ok !== true) return [];
  const body = (await response.json()) as { results?: { gyms?: KeyGym[] } };
  return body.results?.gyms ?? [];
}

function DeskSignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const [gym, setGym] = useState('');
  const [offered, setOffered] = useState<KeyGym[]>([]);
  const offerGyms = async (key: string) => setOffered(await gymsOfKey(key.trim()));
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const fields = formFields(event.currentTarget);
    const key = fields.key ?? '';
    const gymId = Number(fields.gym);
    const session: Session = { kind: 'desk', key, gymId };
    try {
      // The waiting list is the desk's first screen: reading it proves the key may act on this gym.
      await call(session, 'GET', '/access/v1/checkins?limit=1');
      // Times at the desk are the gym's own.
      const known = offered.length > 0 ? offered : await gymsOfKey(key.trim());
      const timezone = known.find((candidate) => candidate.id === gymId)?.timezone;
      onSignedIn(timezone === undefined ? session : { ...session, timezone });
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <form class="card" onSubmit={(event) => void submit(event)} aria-labelledby="desk-title">
      <h2 id="desk-title">{t.signIn.desk}</h2>
      <label>
        {t.signIn.partnerKey}
        <input
          name="key"
          type="password"
          required
          autoComplete="off"
          onChange={(event) => void offerGyms(event.currentTarget.value)}
        />
      </label>
      {offered.length > 0 && (
        <div class="pick" role="group" aria-label={t.signIn.keyGyms}>
          {offered.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              class="quiet"
              aria-pressed={gym === String(candidate.id)}
              onClick={() => setGym(String(candidate.id))}
            >
              {candidate.name}{' '}
              <span class="muted">
                #{candidate.id} · {candidate.timezone}
              </span>
            </button>
          ))}
        </div>
      )}
      <label>
        {t.signIn.gymId}
        <input
          name="gym"
          inputMode="numeric"
          pattern="[1-9][0-9]{0,14}"
          required
          value={gym}
          onInput={(event) => setGym(event.currentTarget.value)}
        />
      </label>
      {error !== undefined && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <button type="submit">{t.signIn.openDesk}</button>
    </form>
  );
}
