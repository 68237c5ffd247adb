import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/**
 * A form's repeated rows (a plan's rules, payout tiers): each a fieldset named by `words.row` ("Rule 1"), with a
 * button to add one and one to remove the last. Fields are named `<field>-<row>`, read back with `rowsOf`.
 */
export function RowList({
  words,
  initial,
  min,
  row,
}: {
  words: { row: (n: number) => string; remove: (n: number) => string; add: string };
  initial: number;
  min: number;
  row: (index: number) => ComponentChildren;
}) {
  const [count, setCount] = useState(Math.max(initial, min));
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <fieldset key={index} class="row-fields">
          <legend>{words.row(index + 1)}</legend>
          {row(index)}
          {index === count - 1 && count > min && (
            <button type="button" class="quiet" onClick={() => setCount(count - 1)}>
              {words.remove(index + 1)}
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" class="quiet" onClick={() => setCount(count + 1)}>
        {words.add}
      </button>
    </>
  );
}

/** The rows a RowList submitted: `{category-0, per-0, …}` read as `[{category, per}, …]`, in order. */
export function rowsOf<N extends string>(
  fields: Record<string, string>,
  names: readonly N[],
): Record<N, string>[] {
  const rows: Record<N, string>[] = [];
  for (let index = 0; `${names[0]}-${index}` in fields; index += 1) {
    rows.push(
      Object.fromEntries(names.map((name) => [name, fields[`${name}-${index}`] ?? ''])) as Record<N, string>,
    );
  }
  return rows;
}
