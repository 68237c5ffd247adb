import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { stringify, type Options } from 'csv-stringify';

/**
 * The options of every CSV gatehouse writes (HTTP exports and the CLI): a header line, and text cells that a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR, or their full-width forms)
 * prefixed with `'`, as OWASP advises against CSV injection. Numbers stay numbers: a negative amount is not
 * touched.
 */
export function csvOptions(columns: readonly string[]): Options {
  return { header: true, columns: [...columns], escape_formulas: true };
}

/**
 * Streams rows as CSV with a header line: nothing is held in memory beyond the batch being read, so an export of
 * any size is served.
 */
export function sendCsv<T>(
  reply: FastifyReply,
  filename: string,
  columns: readonly string[],
  rows: AsyncIterable<T> | Iterable<T>,
  toRecord: (row: T) => Record<string, unknown>,
): FastifyReply {
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield toRecord(row);
    })(),
  );
  const csv = records.pipe(stringify(csvOptions(columns)));
  records.on('error', (error) => csv.destroy(error));
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}
