import { useState } from 'preact/hooks';
import { call, messageOf } from './api.js';
import { formatTime } from './clock.js';
import { ActionForm, ConfirmAction, ErrorNote, OnceSecret, ScrollTable, formFields } from './forms.js';
import { MemberErasure } from './member-erasure.js';
import { may, type Session } from './session.js';
import { useData } from './use-data.js';
import type { CreatedOperator as Created, Operator } from './wire.js';
import { t } from './strings/index.js';

/** The roles an admin may give, with what each may do (README, "Operators and roles"). */
const ROLES = Object.entries(t.operators.roles);

const stateOf = (operator: Operator) =>
  operator.revoked_at !== null
    ? t.operators.disabled(formatTime(operator.revoked_at))
    : operator.expires_at === null
      ? t.operators.active
      : t.operators.activeUntil(formatTime(operator.expires_at));

/** An operator's role, and another one given in place: its token keeps working, with the new role's rights. */
function RoleChange({
  session,
  operator,
  onDone,
}: {
  session: Session;
  operator: Operator;
  onDone: () => void;
}) {
  const [error, setError] = useState<string>();
  // A disabled operator keeps its role, and no operator changes its own (the API refuses both).
  const itself = session.kind === 'operator' && operator.name === session.name;
  if (operator.revoked_at !== null || itself) return <>{operator.role}</>;
  return (
    <form
      class="inline-form"
      aria-label={t.operators.roleOf(operator.name)}
      onSubmit={(event) => {
        event.preventDefault();
        const { role } = formFields(event.currentTarget);
        call(session, 'PATCH', `/admin/v1/operators/${operator.id}`, { role }).then(
          () => {
            setError(undefined);
            onDone();
          },
          (caught: unknown) => setError(messageOf(caught)),
        );
      }}
    >
      <label class="visually-hidden" for={`role-${operator.id}`}>
        {t.operators.roleOf(operator.name)}
      </label>
      <select id={`role-${operator.id}`} name="role">
        {ROLES.map(([role]) => (
          <option key={role} value={role} selected={role === operator.role}>
            {role}
          </option>
        ))}
      </select>
      <button type="submit" class="quiet" aria-label={t.operators.changeRoleOf(operator.name)}>
        {t.operators.change}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/** Operators and their roles: create one (its token shown once), see who has which role, disable one. */
function OperatorsPanel({ session }: { session: Session }) {
  const operators = useData(
    async () => (await call<{ items: Operator[] }>(session, 'GET', '/admin/v1/operators?limit=1000')).items,
    [session],
  );
  const [created, setCreated] = useState<Created>();
  return (
    <section aria-labelledby="operators-title">
      <h2 id="operators-title">{t.operators.heading}</h2>
      <ErrorNote error={operators.error} />
      {created !== undefined && (
        <OnceSecret
          what={t.operators.tokenOf(created.name)}
          why={t.operators.why}
          secret={created.token}
          testId="created-token"
          onDone={() => setCreated(undefined)}
        />
      )}
      <ScrollTable label={t.operators.table}>
        <thead>
          <tr>
            <th scope="col">{t.operators.name}</th>
            <th scope="col">{t.operators.role}</th>
            <th scope="col">{t.operators.token}</th>
            <th scope="col">{t.operators.state}</th>
            <th scope="col">{t.operators.created}</th>
            <th scope="col">
              <span class="visually-hidden">{t.common.action}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {operators.value?.map((operator) => (
            <tr key={operator.id}>
              <td>
                {operator.name} <span class="muted">#{operator.id}</span>
              </td>
              <td>
                <RoleChange session={session} operator={operator} onDone={operators.reload} />
              </td>
              <td>
                <code>{operator.prefix}…</code>
              </td>
              <td>{stateOf(operator)}</td>
              <td>{t.operators.createdBy(formatTime(operator.created_at), operator.created_by)}</td>
              <td>
                {operator.revoked_at === null && (
                  <ConfirmAction
                    label={t.operators.disable}
                    name={t.operators.disableOf(operator.name)}
                    question={t.operators.disableQuestion(operator.name)}
                    act={async () => {
                      await call(session, 'DELETE', `/admin/v1/operators/${operator.id}`);
                      operators.reload();
                    }}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      <ActionForm
        title={t.operators.newOperator}
        submitLabel={t.operators.create}
        action={async ({ name, role }) => {
          setCreated(await call<Created>(session, 'POST', '/admin/v1/operators', { name, role }));
          operators.reload();
        }}
      >
        <label>
          {t.operators.nameField}
          <input name="name" required maxLength={200} />
        </label>
        <label>
          {t.operators.role}
          <select name="role" required>
            {ROLES.map(([role, what]) => (
              <option key={role} value={role}>
                {role}: {what}
              </option>
            ))}
          </select>
        </label>
      </ActionForm>
    </section>
  );
}

/** What only some roles do: operators and roles (admin), erasing a member's data (admin, support). */
export function OperatorsView({ session }: { session: Session }) {
  return (
    <div class="operators">
      <h1>{t.operators.title}</h1>
      {may(session, 'operators') && <OperatorsPanel session={session} />}
      {may(session, 'members') && <MemberErasure session={session} />}
    </div>
  );
}
