import { useState } from 'preact/hooks';
import { call } from './api.js';
import { formatDateTime } from './clock.js';
import { ActionForm, ErrorNote } from './forms.js';
import { PlanRuleFields, submittedRules } from './plan-rule-fields.js';
import { rulesWords, type Plan } from './plan-words.js';
import { may, networkZone, type Session } from './session.js';
import { useData } from './use-data.js';
import { t } from './strings/index.js';

/**
 * The network's plans (what a member may use), each at its latest version with its rules in words. Operators who
 * may change the catalog create plans and publish new versions; the others read them.
 */
export function PlansPanel({ session }: { session: Session }) {
  const plans = useData(
    async () => (await call<{ items: Plan[] }>(session, 'GET', '/admin/v1/plans')).items,
    [session],
  );
  // A new plan's form starts again from one rule once a plan is made.
  const [made, setMade] = useState(0);
  const writes = may(session, 'catalog');
  return (
    <section aria-labelledby="plans-title">
      <h2 id="plans-title">{t.plans.title}</h2>
      <ErrorNote error={plans.error} />
      {plans.value?.length === 0 && <p class="muted">{t.plans.none}</p>}
      {plans.value?.map((plan) => (
        <article key={plan.id} class="card" aria-labelledby={`plan-${plan.id}`}>
          <h3 id={`plan-${plan.id}`}>
            {plan.name} <span class="muted">{t.plans.planVersion(plan.id, plan.version)}</span>
          </h3>
          <p>
            {rulesWords(plan.rules)}{' '}
            <span class="muted">
              {t.plans.from(formatDateTime(plan.effective_from, networkZone(session)))}
            </span>
          </p>
          {writes && (
            <details>
              <summary>{t.plans.changeRulesOf(plan.name)}</summary>
              <ActionForm
                key={plan.version}
                title={t.plans.newVersionOf(plan.name)}
                submitLabel={t.plans.publish(plan.version + 1)}
                action={async (fields) => {
                  await call(session, 'PUT', `/admin/v1/plans/${plan.id}`, { rules: submittedRules(fields) });
                  plans.reload();
                }}
              >
                <PlanRuleFields rules={plan.rules} />
              </ActionForm>
            </details>
          )}
        </article>
      ))}
      {writes && (
        <ActionForm
          key={made}
          title={t.plans.newPlan}
          submitLabel={t.plans.create}
          action={async ({ name = '', ...fields }) => {
            await call(session, 'POST', '/admin/v1/plans', { name, rules: submittedRules(fields) });
            setMade(made + 1);
            plans.reload();
          }}
        >
          <label>
            {t.plans.name}
            <input name="name" required maxLength={200} />
          </label>
          <PlanRuleFields rules={[]} />
        </ActionForm>
      )}
    </section>
  );
}
