import { Option } from 'commander';
import { stringify } from 'csv-stringify/sync';
import { stringify as stringifyStream } from 'csv-stringify';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvOptions } from '../presenters/csv.js';
import { oneOf } from './arguments.js';

export type Format = 'table' | 'json' | 'csv' | 'id';
export const FORMATS: Format[] = ['table', 'json', 'csv', 'id'];

export type Row = Record<string, unknown>;

/**
 * `--format table|json|csv|id`, the same on every command that prints records. `id` prints only the ids, one a
 * line, for a shell to keep: `partner=$(./gatehouse partner create Acme --format id)`.
 */
export function formatOption(records: 'with-ids' | 'without-ids' = 'with-ids'): Option {
  const formats = records === 'with-ids' ? FORMATS : FORMATS.filter((format) => format !== 'id');
  const help = records === 'with-ids' ? 'table, json, csv, or id (the ids alone)' : 'table, json or csv';
  return new Option('--format <format>', help).argParser(oneOf(formats)).default('table');
}

/** C0, DEL and C1: a name holding ESC could drive the operator's terminal (colours, titles, cursor moves). */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/g;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A table cell: the value as text, with every control character taken out. */
function cell(value: unknown): string {
  return text(value).replace(CONTROL_CHARACTERS, '');
}

function table(rows: readonly Row[]): string {
  const first = rows[0];
  if (first === undefined) return '(none)\n';
  const columns = Object.keys(first);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => cell(row[column]).length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return (
    [line(columns), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join('\n') + '\n'
  );
}

/**
 * Prints records the way the operator asked: an aligned table, JSON (the API's shape), or CSV — whose header
 * names `columns` even when there are no rows.
 */
export function print(rows: readonly Row[], format: Format, columns: readonly string[]): void {
  if (format === 'id') process.stdout.write(rows.map((row) => `${cell(row.id)}\n`).join(''));
  else if (format === 'json') process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else if (format === 'csv') process.stdout.write(stringify([...rows], csvOptions(columns)));
  else process.stdout.write(table(rows));
}

export function printOne(row: Row, format: Format): void {
  if (format === 'json') process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
  else print([row], format, Object.keys(row));
}

/**
 * Prints a record that comes with a secret shown this once (a key, a token, a signing secret): JSON and CSV carry
 * it as one more field; `id` keeps stdout for the shell and tells the person on stderr; a table puts it on a line
 * of its own, with why it must be copied now.
 */
export function printWithSecret(
  record: Row,
  secret: { readonly name: string; readonly value: string; readonly shownOnce: string },
  format: Format,
): void {
  const { name, value, shownOnce } = secret;
  if (format === 'json' || format === 'csv') printOne({ ...record, [name]: value }, format);
  else if (format === 'id') {
    process.stdout.write(`${cell(record.id)}\n`);
    process.stderr.write(`${name}: ${value}\n${shownOnce}`);
  } else {
    printOne(record, format);
    process.stdout.write(`\n${name}: ${value}\n\n${shownOnce}`);
  }
}

/** CSV of any size, straight from a row source to stdout. */
export async function streamCsv(columns: readonly string[], rows: AsyncIterable<Row>): Promise<void> {
  await pipeline(Readable.from(rows), stringifyStream(csvOptions(columns)), process.stdout, {
    end: false,
  });
}
