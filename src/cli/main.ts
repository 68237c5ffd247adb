#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { redactCredentials } from '../domain/credentials.js';
import { AppError } from '../domain/errors.js';
import { curlValidateLine, seedDemo } from '../services/demo.js';
import { addCatalogCommands } from './catalog-commands.js';
import { addCheckinCommands } from './checkin-commands.js';
import { withServices } from './context.js';
import { addKeyCommands } from './key-commands.js';
import { addLedgerCommands } from './ledger-commands.js';
import { serve } from './serve.js';

function buildProgram(): Command {
  const program = new Command('gatehouse')
    .description(
      'Access control for gym networks.\n\nConfiguration comes from GATEHOUSE_* environment variables (see the README);\n' +
        'the database is GATEHOUSE_DATABASE_URL (default sqlite:./data/gatehouse.db).',
    )
    .showHelpAfterError()
    .exitOverride();

  program
    .command('serve')
    .description(
      'serve the partner and operator APIs (applies pending migrations unless GATEHOUSE_MIGRATE=false)',
    )
    .action(() => serve(loadConfig()));
  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .action(() =>
      withServices(async (_services, config) => {
        process.stdout.write(`migrations applied to ${redactCredentials(config.databaseUrl)}\n`);
      }),
    );
  program
    .command('demo')
    .description(
      'create a demo partner (once), a fresh key and check-in, and print a curl line to validate it',
    )
    .action(() =>
      withServices(async (services, config) => {
        const access = await seedDemo(services);
        process.stdout.write(`${curlValidateLine(`http://${config.host}:${config.port}`, access)}\n`);
      }),
    );
  addCatalogCommands(program);
  addKeyCommands(program);
  addCheckinCommands(program);
  addLedgerCommands(program);
  program.commands.forEach(function exitOverride(command: Command): void {
    command.exitOverride().showHelpAfterError();
    command.commands.forEach(exitOverride);
  });
  return program;
}

function describeFailure(error: unknown): string {
  if (error instanceof AppError) return `${error.message} (${error.key})`;
  if (error instanceof ConfigError) return error.message;
  // Anything else (the database unreachable, not migrated): its message, never a stack trace.
  return error instanceof Error ? error.message : String(error);
}

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`gatehouse: ${redactCredentials(describeFailure(error))}\n`);
    process.exitCode = 1;
  });
