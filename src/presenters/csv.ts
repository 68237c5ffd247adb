import type { Options } from 'csv-stringify';

/**
 * The options of every CSV gatehouse writes (HTTP exports and the CLI): a header line, and text cells that a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR, or their full-width forms)
 * prefixed with `'`, as OWASP advises against CSV injection. Numbers stay numbers: a negative amount is not
 * touched. A flag reads `true` or `false` (csv-stringify's own `1` and an empty cell read as a number and a gap).
 */
export function csvOptions(columns: readonly string[]): Options {
  return {
    header: true,
    columns: [...columns],
    escape_formulas: true,
    cast: { boolean: (value) => String(value) },
  };
}
