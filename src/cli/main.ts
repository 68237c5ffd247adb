#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import { curlValidateLine, seedDemo } from '../services/demo.js';
import { createStore } from '../store/create-store.js';
import { serve } from './serve.js';

const HELP = `gatehouse — access control for gym networks

Usage: gatehouse <command> [options]

Commands:
  serve     Serve the partner API (applies pending migrations unless GATEHOUSE_MIGRATE=false)
  migrate   Apply pending database migrations and exit
  demo      Create a demo partner (once), a fresh demo key and check-in, and print a curl line to validate it
  help      Show this help

Configuration comes from GATEHOUSE_* environment variables; see the README.
The database is GATEHOUSE_DATABASE_URL (default sqlite:./data/gatehouse.db).
`;

async function migrate(config: Config): Promise<void> {
  const store = createStore(config);
  try {
    await store.migrate();
    process.stdout.write(`migrations applied to ${config.databaseUrl}\n`);
  } finally {
    await store.close();
  }
}

async function demo(config: Config): Promise<void> {
  const store = createStore(config);
  try {
    if (config.migrate) await store.migrate();
    const { server, services } = await buildApp({ config: { ...config, logLevel: 'silent' }, store });
    await server.close();
    const access = await seedDemo(services);
    process.stdout.write(`${curlValidateLine(`http://${config.host}:${config.port}`, access)}\n`);
  } finally {
    await store.close();
  }
}

const COMMANDS: Record<string, (config: Config) => Promise<void>> = { serve, migrate, demo };

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  const [command = 'help'] = positionals;
  if (command === 'help' || values.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const run = COMMANDS[command];
  if (run === undefined) {
    process.stderr.write(`gatehouse: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  await run(loadConfig());
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    const message =
      error instanceof ConfigError || error instanceof AppError
        ? error.message
        : String((error as Error).stack);
    process.stderr.write(`gatehouse: ${message}\n`);
    process.exitCode = 1;
  },
);
