import type pg from 'pg';

/** One statement of a pipeline: a named prepared statement and its parameters (text, or null). */
export interface Step {
  readonly name: string;
  readonly text: string;
  readonly values: readonly (string | null)[];
}

type Row = Record<string, unknown>;
type Parse = (value: string) => unknown;

/**
 * Statements sent to the server in one write and answered in one round trip: Bind and Execute for each, one Sync
 * at the end (the extended protocol's pipelining, which node-postgres does not do on its own). The server runs
 * them in order, each with a snapshot taken after the one before it ended; after an error it skips the rest up to
 * the Sync, so a COMMIT that follows a failed statement never runs. Parameters stay parameters: nothing is quoted
 * into the SQL.
 */
class Pipeline implements pg.Submittable {
  private readonly results: Row[][] = [];
  private rows: Row[] = [];
  private names: string[] = [];
  private parsers: Parse[] = [];
  private failed: unknown;
  /** Called once with the outcome; the driver wraps it (its read timeout) and may replace it. */
  callback: (error: unknown, results?: Row[][]) => void = () => undefined;

  constructor(
    private readonly steps: readonly Step[],
    /** Only Parse each statement (once per connection), run nothing. */
    private readonly parseOnly: boolean,
    private readonly typeParser: (oid: number) => Parse,
  ) {}

  submit(connection: pg.Connection): void {
    connection.stream.cork();
    try {
      for (const step of this.steps) {
        if (this.parseOnly) {
          connection.parse({ name: step.name, text: step.text, types: [] }, true);
          continue;
        }
        connection.bind({ statement: step.name, values: [...step.values] }, true);
        connection.describe({ type: 'P', name: '' }, true);
        connection.execute({ portal: '' }, true);
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(message: { fields: pg.FieldDef[] }): void {
    this.names = message.fields.map((field) => field.name);
    this.parsers = message.fields.map((field) => this.typeParser(field.dataTypeID));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failed !== undefined) return;
    try {
      const row: Row = {};
      message.fields.forEach((value, i) => {
        row[this.names[i] ?? i] = value === null ? null : this.parsers[i]?.(value);
      });
      this.rows.push(row);
    } catch (error) {
      this.failed = error;
    }
  }

  handleCommandComplete(): void {
    this.results.push(this.rows);
    this.rows = [];
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  /** The server refused a statement (it skipped the rest), or the connection failed: the driver forgets us. */
  handleError(error: unknown): void {
    this.callback(error);
  }

  handleReadyForQuery(): void {
    this.callback(this.failed, this.results);
  }

  handlePortalSuspended(): void {
    this.failed ??= new Error('a pipelined statement was suspended');
  }
}

function send(client: pg.PoolClient, steps: readonly Step[], parseOnly: boolean): Promise<Row[][]> {
  return new Promise((resolve, reject) => {
    const query = new Pipeline(steps, parseOnly, (oid) => client.getTypeParser(oid, 'text') as Parse);
    let settled = false;
    query.callback = (error, results) => {
      if (settled) return;
      settled = true;
      if (error === undefined && results !== undefined) resolve(results);
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    client.query(query);
  });
}

/** The connections whose server sessions hold the pipelines' statements. */
const prepared = new WeakMap<pg.PoolClient, Set<string>>();

/**
 * Runs the steps in one round trip and returns each one's rows. A statement this connection has not parsed yet is
 * parsed first, in a round trip of its own (once per connection), so that a pipeline that fails never leaves us
 * unsure which statements the server holds.
 */
export async function pipeline(client: pg.PoolClient, steps: readonly Step[]): Promise<Row[][]> {
  const held = prepared.get(client) ?? new Set<string>();
  const missing = steps.filter((step) => !held.has(step.name));
  if (missing.length > 0) {
    const unique = [...new Map(missing.map((step) => [step.name, step])).values()];
    await send(client, unique, true);
    for (const step of unique) held.add(step.name);
    prepared.set(client, held);
  }
  const results = await send(client, steps, false);
  if (results.length !== steps.length) throw new Error('a pipelined statement lost its result');
  return results;
}
