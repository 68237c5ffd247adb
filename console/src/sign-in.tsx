import { useState } from 'preact/hooks';
import { call, messageOf } from './api.js';
import { formFields } from './forms.js';
import type { Session } from './session.js';

interface Me {
  name: string | null;
  role: string;
  permissions: string[];
  timezone: string;
}

/** Both ways in. Each is checked against the API before anything is shown: a refused credential shows nothing. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  return (
    <div class="sign-in">
      <h1>Sign in</h1>
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
        setError(`The ${me.role} role may not read the operator API: the console has nothing to show it.`);
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
      <h2 id="operator-title">Operator</h2>
      <label>
        Operator token
        <input name="token" type="password" required autoComplete="off" />
      </label>
      {error !== undefined && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <button type="submit">Sign in as operator</button>
    </form>
  );
}

function DeskSignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const fields = formFields(event.currentTarget);
    const session: Session = { kind: 'desk', key: fields.key ?? '', gymId: Number(fields.gym) };
    try {
      // The waiting list is the desk's first screen: reading it proves the key may act on this gym.
      await call(session, 'GET', '/access/v1/checkins?limit=1');
      onSignedIn(session);
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <form class="card" onSubmit={(event) => void submit(event)} aria-labelledby="desk-title">
      <h2 id="desk-title">Front desk</h2>
      <label>
        Partner API key
        <input name="key" type="password" required autoComplete="off" />
      </label>
      <label>
        Gym id
        <input name="gym" inputMode="numeric" pattern="[1-9][0-9]{0,14}" required />
      </label>
      {error !== undefined && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <button type="submit">Open the front desk</button>
    </form>
  );
}
