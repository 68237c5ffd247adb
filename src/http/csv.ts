import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify';
import { csvOptions } from '../presenters/csv.js';

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
