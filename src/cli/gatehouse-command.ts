import { Command } from 'commander';
import type { Services } from '../services/index.js';
import { withServices } from './context.js';
import { formatOption, print, printOne, printWithSecret, type Format, type Row } from './output.js';

/**
 * What a command's call receives: the services, then the command's arguments and its options (without --format,
 * which is the printing's), as commander passes them; each command types its own.
 */
type Call<T> = (services: Services, ...args: never[]) => Promise<T>;

/** commander passes the arguments, then the options, then the command itself. */
function callArguments(args: unknown[]): never[] {
  const options = { ...(args.at(-2) as Record<string, unknown>) };
  delete options.format;
  return [...args.slice(0, -2), options, args.at(-1)] as never[];
}

/**
 * commander's Command with the shape most gatehouse commands share: one service call whose answer is printed as
 * --format asks. A command states its arguments, its options and the call; `printsRecord` and `printsRecords` add
 * --format (last, where --help has always listed it) and the action. Subcommands are made of this class too.
 */
export class GatehouseCommand extends Command {
  override createCommand(name?: string): GatehouseCommand {
    return new GatehouseCommand(name);
  }

  /** The command prints the one record its call answers: the record it made or changed. */
  printsRecord(call: Call<Row>): this {
    return this.addOption(formatOption()).action(async (...args: unknown[]) => {
      const { format } = this.opts<{ format: Format }>();
      await withServices(async (services) => printOne(await call(services, ...callArguments(args)), format));
    });
  }

  /**
   * The command prints the records its call answers; a CSV is headed by `columns` even when there are none. With
   * `asText`, a table and a CSV print each record as it makes it (an object flattened to columns, a long field cut
   * short in a table), JSON as answered.
   */
  printsRecords(
    columns: readonly string[],
    call: Call<readonly Row[]>,
    asText?: (row: Row, format: 'table' | 'csv') => Row,
  ): this {
    return this.addOption(formatOption()).action(async (...args: unknown[]) => {
      const { format } = this.opts<{ format: Format }>();
      await withServices(async (services) => {
        const rows = await call(services, ...callArguments(args));
        const shown =
          asText !== undefined && (format === 'table' || format === 'csv')
            ? rows.map((row) => asText(row, format))
            : rows;
        print(shown, format, columns);
      });
    });
  }

  /**
   * The command prints the record its call made with the secret that comes with it, shown this once (a key, a
   * token, a signing secret): `name` labels it, `shownOnce` says why it must be copied now.
   */
  printsSecret(
    name: string,
    shownOnce: string,
    call: Call<{ readonly record: Row; readonly secret: string }>,
  ): this {
    return this.addOption(formatOption()).action(async (...args: unknown[]) => {
      const { format } = this.opts<{ format: Format }>();
      await withServices(async (services) => {
        const { record, secret } = await call(services, ...callArguments(args));
        printWithSecret(record, { name, value: secret, shownOnce }, format);
      });
    });
  }
}

/** A command `program` already has (`partner`, `gym` …), for commands added to it from another file. */
export function subcommand(program: Command, name: string): GatehouseCommand {
  const found = program.commands.find((command) => command.name() === name);
  if (!(found instanceof GatehouseCommand)) throw new Error(`the ${name} command is added first`);
  return found;
}
