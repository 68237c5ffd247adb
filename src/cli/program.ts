#!/usr/bin/env node
import { CommanderError, type Command } from 'commander';
import { GatehouseCommand } from './gatehouse-command.js';
import { ConfigError } from '../config/errors.js';
import { unknownSettingsWarning } from '../config/unknown-settings.js';
import { redactCredentials } from '../domain/credentials.js';
import { AppError } from '../domain/errors.js';
import { addBackupCommands } from './backup-commands.js';
import { addCatalogChangeCommands } from './catalog-change-commands.js';
import { addCatalogCommands } from './catalog-commands.js';
import { addCheckinCommands } from './checkin-commands.js';
import { withServices } from './context.js';
import { DatabaseRefusedError } from './database-check.js';
import { addIntegrationCommands } from './integration-commands.js';
import { addKeyCommands } from './key-commands.js';
import { addLedgerCommands } from './ledger-commands.js';
import { addMoneyCommands } from './money-commands.js';
import { addNatsCommands } from './nats-commands.js';
import { addMemberDataCommands, addOperatorCommands } from './operator-commands.js';
import { addPayoutRuleCommands } from './payout-rule-commands.js';
import { addPlanCommands } from './plan-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

// Only commander and the command definitions load up front: `--help` and a usage error answer in a blink, and each
// action loads the configuration, the store (and, for serve, the whole server) when it runs.
const VERSION_FLAGS = ['-V', '--version'];

function commandPath(command: Command): string {
  return command.parent === null ? command.name() : `${commandPath(command.parent)} ${command.name()}`;
}

/**
 * Every command, however deep: a usage error prints the one thing that is wrong and where to find the usage (not
 * the whole help), and required options say so in the help.
 */
function finish(command: Command): void {
  command.exitOverride().showHelpAfterError(`Run '${commandPath(command)} --help' for its usage.`);
  for (const option of command.options) {
    if (option.mandatory) option.description = `(required) ${option.description}`;
  }
  command.commands.forEach(finish);
}

function buildProgram(): Command {
  const program = new GatehouseCommand('gatehouse')
    .description(
      'Access control for gym networks.\n\nConfiguration comes from GATEHOUSE_* environment variables (see the README);\n' +
        'the database is GATEHOUSE_DATABASE_URL (default sqlite:./data/gatehouse.db).',
    )
    .option('-V, --version', 'print the version of gatehouse, its commit and its newest migration');

  program
    .command('serve')
    .description(
      'serve the partner and operator APIs (applies pending migrations unless GATEHOUSE_MIGRATE=false)',
    )
    .action(async () => {
      const [{ loadConfig }, { serve }] = await Promise.all([
        import('../config/index.js'),
        import('./serve.js'),
      ]);
      await serve(loadConfig());
    });
  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .action(() =>
      withServices(
        async (_services, config, pending, notes) => {
          const database = redactCredentials(config.databaseUrl);
          for (const note of notes) process.stdout.write(`${note}\n`);
          process.stdout.write(
            pending
              ? `migrations applied to ${database}\n`
              : `no pending migrations: ${database} is up to date\n`,
          );
        },
        { migrate: true },
      ),
    );
  program
    .command('demo')
    .description(
      'create a demo partner (once), a fresh key and check-in, and print a curl line to validate it',
    )
    .option('--force', 'seed a database other than the default one (GATEHOUSE_DATABASE_URL set) all the same')
    .action((options: { force?: boolean }) =>
      withServices(async (services, config) => {
        if (!config.databaseUrlIsDefault && options.force !== true) {
          throw new DatabaseRefusedError(
            `demo writes a live demo partner with a working key: refused on ${redactCredentials(config.databaseUrl)}, ` +
              'which is not the default database (unset GATEHOUSE_DATABASE_URL, or pass --force)',
          );
        }
        const { curlValidateLine, seedDemo } = await import('../services/demo.js');
        const access = await seedDemo(services);
        process.stdout.write(`${curlValidateLine(`http://${config.host}:${config.port}`, access)}\n`);
      }),
    );
  addCatalogCommands(program);
  addCatalogChangeCommands(program);
  addKeyCommands(program);
  addCheckinCommands(program);
  addLedgerCommands(program);
  addMoneyCommands(program);
  addWebhookCommands(program);
  addIntegrationCommands(program);
  addOperatorCommands(program);
  addMemberDataCommands(program);
  addPlanCommands(program);
  addPayoutRuleCommands(program);
  addBackupCommands(program);
  addNatsCommands(program);
  finish(program);
  return program;
}

function describeFailure(error: unknown): string {
  if (error instanceof AppError) return `${error.message} (${error.key})`;
  if (error instanceof ConfigError || error instanceof DatabaseRefusedError) return error.message;
  // Anything else (the database unreachable, not migrated): its message, never a stack trace.
  return error instanceof Error ? error.message : String(error);
}

/** `--version` alone, before any command: it loads the migrations list (and git), which no other answer needs. */
async function run(argv: readonly string[]): Promise<void> {
  const [first] = argv.slice(2);
  if (first !== undefined && VERSION_FLAGS.includes(first)) {
    const { versionLine } = await import('./version-line.js');
    process.stdout.write(`${versionLine()}\n`);
    return;
  }
  const warning = unknownSettingsWarning(process.env);
  if (warning !== undefined) process.stderr.write(`gatehouse: ${warning}\n`);
  await buildProgram().parseAsync(argv);
}

run(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // Help and version exit 0; usage errors were already printed by commander.
    process.exitCode = error.exitCode;
    return;
  }
  // One line per problem (several bad settings are reported together), each saying where it comes from.
  const lines = redactCredentials(describeFailure(error)).split('\n');
  process.stderr.write(lines.map((line) => `gatehouse: ${line}\n`).join(''));
  process.exitCode = 1;
});
