import { PERIODS, SCOPES, type PlanRule } from './plan-words.js';
import { RowList, rowsOf } from './row-list.js';
import { t } from './strings/index.js';

const FIELDS = ['category', 'per', 'limit', 'scope'] as const;

/** A plan's rules as a form edits them, one fieldset each; starts from `rules` (a new plan: one standard rule). */
export function PlanRuleFields({ rules }: { rules: readonly PlanRule[] }) {
  return (
    <RowList
      words={t.rows.rule}
      initial={rules.length}
      min={1}
      row={(index) => {
        const rule = rules[index];
        const n = index + 1;
        return (
          <>
            <label>
              {t.plans.category(n)}
              <input name={`category-${index}`} required defaultValue={rule?.category ?? 'standard'} />
            </label>
            <label>
              {t.plans.visits(n)}
              <input
                name={`limit-${index}`}
                type="number"
                min={0}
                required
                defaultValue={String(rule?.limit ?? 1)}
              />
            </label>
            <Choice
              label={t.plans.per(n)}
              name={`per-${index}`}
              options={PERIODS}
              words={t.plans.periods}
              chosen={rule?.per ?? 'day'}
            />
            <Choice
              label={t.plans.scope(n)}
              name={`scope-${index}`}
              options={SCOPES}
              words={t.plans.scopes}
              chosen={rule?.scope ?? 'network'}
            />
          </>
        );
      }}
    />
  );
}

function Choice<O extends string>({
  label,
  name,
  options,
  words,
  chosen,
}: {
  label: string;
  name: string;
  options: readonly O[];
  /** Each option as the console's language says it (its value is the API's). */
  words: Readonly<Record<O, string>>;
  chosen: string;
}) {
  return (
    <label>
      {label}
      <select name={name}>
        {options.map((option) => (
          <option key={option} value={option} selected={option === chosen}>
            {words[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The rules a PlanRuleFields form submitted, in the API's shape (the API judges them). */
export const submittedRules = (fields: Record<string, string>) =>
  rowsOf(fields, FIELDS).map((row) => ({ ...row, limit: Number(row.limit) }));
