import { PERIODS, SCOPES, type PlanRule } from './plan-words.js';
import { RowList, rowsOf } from './row-list.js';

const FIELDS = ['category', 'per', 'limit', 'scope'] as const;

/** A plan's rules as a form edits them, one fieldset each; starts from `rules` (a new plan: one standard rule). */
export function PlanRuleFields({ rules }: { rules: readonly PlanRule[] }) {
  return (
    <RowList
      noun="Rule"
      initial={rules.length}
      min={1}
      row={(index) => {
        const rule = rules[index];
        const n = index + 1;
        return (
          <>
            <label>
              Rule {n}: product category
              <input name={`category-${index}`} required defaultValue={rule?.category ?? 'standard'} />
            </label>
            <label>
              Rule {n}: visits
              <input
                name={`limit-${index}`}
                type="number"
                min={0}
                required
                defaultValue={String(rule?.limit ?? 1)}
              />
            </label>
            <Choice
              label={`Rule ${n}: per`}
              name={`per-${index}`}
              options={PERIODS}
              chosen={rule?.per ?? 'day'}
            />
            <Choice
              label={`Rule ${n}: scope (where visits count)`}
              name={`scope-${index}`}
              options={SCOPES}
              chosen={rule?.scope ?? 'network'}
            />
          </>
        );
      }}
    />
  );
}

function Choice({
  label,
  name,
  options,
  chosen,
}: {
  label: string;
  name: string;
  options: readonly string[];
  chosen: string;
}) {
  return (
    <label>
      {label}
      <select name={name}>
        {options.map((option) => (
          <option key={option} value={option} selected={option === chosen}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The rules a PlanRuleFields form submitted, in the API's shape (the API judges them). */
export const submittedRules = (fields: Record<string, string>) =>
  rowsOf(fields, FIELDS).map((row) => ({ ...row, limit: Number(row.limit) }));
