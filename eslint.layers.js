/**
 * The layers of gatehouse and what each may import, enforced by `npm run lint` (docs/architecture.md explains
 * them). Each layer names the imports it may not make; a crossing is fixed by moving the shared type or function
 * to a layer both sides may import, not by an exception here. The entry points that wire the store into the app
 * are the one exception, and are named below.
 *
 * The configuration (src/config) is read by every layer above the domain, so it imports only the domain, node:
 * built-ins and packages; so does any module at the root of src/ that is not an entry point (src/version.ts).
 *
 * Paths are matched on the import as written. Relative imports climb with `../`, so `(\.\.\/)+store\/` is "the
 * store, from any depth". Patterns avoid a literal slash (`\x2F`) so that they also work in the selectors that
 * catch dynamic `import()`, which `no-restricted-imports` does not see.
 */

const SLASH = '\\x2F';
const UP = `^(?:\\.\\.${SLASH})+`;

/** A folder of src/, from a file in another folder of src/ (any depth). */
const folders = (...names) => `${UP}(?:${names.join('|')})${SLASH}`;
/** A module at the root of src/ (app.ts, version.ts), from a file in a folder of src/. */
const rootModules = (...names) => `${UP}(?:${names.join('|')})\\.js$`;
/** The configuration folder, or the app that wires it: the domain, the store and the presenters import neither. */
const CONFIG_OR_APP = `${UP}(?:config${SLASH}|app\\.js$)`;

const FASTIFY = `^(?:fastify|fastify-plugin|@fastify${SLASH}.*)$`;
const SQL = `^(?:kysely|pg|better-sqlite3)$`;
const ANY_PACKAGE = `^(?![.]|node:)`;

const WHY = 'see docs/architecture.md, "Layers"';

const DOMAIN = [
  {
    regex: folders('store', 'services', 'presenters', 'http', 'partner-api', 'operator-api', 'cli'),
    message: `The domain imports only the domain: rules stay pure, with no I/O (${WHY}).`,
  },
  {
    regex: CONFIG_OR_APP,
    message: `The domain does not read configuration: a service passes it what it needs (${WHY}).`,
  },
];
const DOMAIN_PACKAGES = {
  regex: ANY_PACKAGE,
  message: `The domain imports no package, only node: built-ins: its rules run anywhere (${WHY}).`,
};
const DOMAIN_TEST_PACKAGES = {
  ...DOMAIN_PACKAGES,
  regex: `^(?![.]|node:|vitest$|fast-check$|standardwebhooks$)`,
};

const STORE = [
  {
    regex: folders('services', 'presenters', 'http', 'partner-api', 'operator-api', 'cli'),
    message: `The store never imports services, presenters, HTTP or the CLI: it carries out changes the domain decided (${WHY}).`,
  },
  {
    regex: CONFIG_OR_APP,
    message: `The store takes its options from its creator, not from the configuration module (${WHY}).`,
  },
  { regex: FASTIFY, message: `The store knows nothing of HTTP (${WHY}).` },
];

const SQL_ONLY_IN_STORE = {
  regex: SQL,
  message: `SQL and database drivers live in src/store only (${WHY}).`,
};

const SERVICES = [
  {
    regex: folders('presenters', 'http', 'partner-api', 'operator-api', 'cli'),
    message: `Services are called by the APIs and the CLI, never the other way round (${WHY}).`,
  },
  { regex: rootModules('app'), message: `Services never import the app (${WHY}).` },
  { regex: FASTIFY, message: `Services know nothing of HTTP: the routes translate (${WHY}).` },
  SQL_ONLY_IN_STORE,
];

const PRESENTERS = [
  {
    regex: folders('store', 'services', 'http', 'partner-api', 'operator-api', 'cli'),
    message: `Presenters turn domain records into wire shapes and import only the domain (${WHY}).`,
  },
  { regex: CONFIG_OR_APP, message: `Presenters import only the domain (${WHY}).` },
  { regex: FASTIFY, message: `Presenters are shared by the CLI: no HTTP in them (${WHY}).` },
  SQL_ONLY_IN_STORE,
];

const NO_STORE_FOR_ROUTES = {
  regex: folders('store'),
  message: `Routes never import the store: they call a service, or take what they need from the app (${WHY}).`,
};
const NO_CLI = { regex: folders('cli'), message: `Nothing but the CLI imports the CLI (${WHY}).` };
const NO_APP = { regex: rootModules('app'), message: `Only the entry points import the app (${WHY}).` };

const HTTP = [
  NO_STORE_FOR_ROUTES,
  NO_CLI,
  NO_APP,
  {
    regex: folders('partner-api', 'operator-api'),
    message: `The shared HTTP layer serves both APIs and imports neither (${WHY}).`,
  },
  SQL_ONLY_IN_STORE,
];
const PARTNER_API = [
  NO_STORE_FOR_ROUTES,
  NO_CLI,
  NO_APP,
  {
    regex: folders('operator-api'),
    message: `The two APIs share through src/http, src/presenters or the services, never directly (${WHY}).`,
  },
  SQL_ONLY_IN_STORE,
];
const OPERATOR_API = [
  ...PARTNER_API.slice(0, 3),
  { ...PARTNER_API[3], regex: folders('partner-api') },
  SQL_ONLY_IN_STORE,
];

/** From src/config: anything outside the folder but the domain (`../domain/…`). */
const CONFIG = [
  {
    regex: `${UP}(?!\\.\\.${SLASH}|domain${SLASH})`,
    message: `The configuration imports only the domain: every layer reads it, so it reads no layer (${WHY}).`,
  },
  SQL_ONLY_IN_STORE,
];
/** From a module at the root of src/: any folder but the domain (`./domain/…`). */
const ROOT = [
  {
    regex: `^\\.${SLASH}(?!domain${SLASH})`,
    message: `A module at the root of src/ that is not an entry point imports only the domain: any layer may import it (${WHY}).`,
  },
  SQL_ONLY_IN_STORE,
];

const CLI = [
  {
    regex: folders('store', 'http', 'partner-api', 'operator-api'),
    message: `CLI commands go through the services and the shared presenters, like the operator API (${WHY}).`,
  },
  NO_APP,
  { regex: FASTIFY, message: `CLI commands know nothing of HTTP (${WHY}).` },
  SQL_ONLY_IN_STORE,
];

const SDK = [
  {
    regex: `^\\.\\.${SLASH}`,
    message:
      'The SDK is published alone: it imports nothing outside sdk/src (its wire types are written out, and ' +
      'test/sdk/wire-types.test.ts holds them equal to the server’s schemas).',
  },
  {
    regex: ANY_PACKAGE,
    message: 'The SDK has no runtime dependencies: global fetch and node: built-ins only.',
  },
];

/**
 * The process entry points: they create the store and hand it to the app and the services, so they may import
 * anything. Keep this list short; new code belongs in a layer.
 */
export const ENTRY_POINTS = [
  'src/app.ts',
  'src/cli/serve.ts',
  'src/cli/log-output.ts',
  'src/cli/context.ts',
  'src/cli/database-check.ts',
  // The webhook delivery thread of `serve`: it opens a store of its own, as serve does.
  'src/cli/delivery-thread-main.ts',
  // Copies the SQLite database file itself (SQLite's online backup), with no store or service around it.
  'src/cli/backup-commands.ts',
];

/** Both rules: static imports and exports, and dynamic `import('…')` with a literal path. */
function restrict(patterns) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: patterns.map(({ regex, message }) => ({ regex, message })) },
    ],
    'no-restricted-syntax': [
      'error',
      ...patterns.map(({ regex, message }) => ({
        selector: `ImportExpression[source.value=/${regex}/]`,
        message,
      })),
    ],
  };
}

/*
 * Inside the store (docs/architecture.md, "The write path"): the change engine in src/store/changes/, one folder
 * per dialect in src/store/dialects/, the repositories by feature. The engine runs on every dialect, so it
 * imports none; a dialect never borrows from the other; a repository is plain query-builder code that any
 * path may call, so it imports no dialect and, of the engine, only the definitions every path shares: the rows
 * (changes/rows.ts) and the rules' SQL (changes/rule-sql.ts). Each block repeats STORE: a file's last matching
 * block sets its rules.
 */
const WHY_WRITE_PATH = 'see docs/architecture.md, "The write path"';
const STORE_CHANGES = {
  regex: `${UP}dialects${SLASH}`,
  message: `The change engine runs on every dialect and imports none of them; a dialect calls the engine (${WHY_WRITE_PATH}).`,
};
const otherDialect = (name) => ({
  regex: `${UP}(?:dialects${SLASH})?${name}${SLASH}`,
  message: `One dialect never imports the other: what both need lives in src/store/changes/ (${WHY_WRITE_PATH}).`,
});
const STORE_REPOSITORIES = [
  {
    regex: `${UP}dialects${SLASH}`,
    message: `A repository is query-builder code every dialect may call: it imports no dialect (${WHY_WRITE_PATH}).`,
  },
  {
    regex: `${UP}changes${SLASH}(?!rows\\.js$|rule-sql\\.js$)`,
    message: `Of the change engine a repository imports only the shared rows and rules (changes/rows.ts, changes/rule-sql.ts): the engine calls repositories, not the other way round (${WHY_WRITE_PATH}).`,
  },
];
const REPOSITORY_FOLDERS = ['access', 'catalog', 'events', 'ledger', 'members', 'webhooks'];

export const storeWings = [
  { name: 'store/changes', files: ['src/store/changes/**/*.ts'], rules: restrict([...STORE, STORE_CHANGES]) },
  {
    name: 'store/dialect-sqlite',
    files: ['src/store/dialects/sqlite/**/*.ts'],
    rules: restrict([...STORE, otherDialect('postgres')]),
  },
  {
    name: 'store/dialect-postgres',
    files: ['src/store/dialects/postgres/**/*.ts'],
    rules: restrict([...STORE, otherDialect('sqlite')]),
  },
  {
    name: 'store/repositories',
    files: REPOSITORY_FOLDERS.map((folder) => `src/store/${folder}/**/*.ts`),
    rules: restrict([...STORE, ...STORE_REPOSITORIES]),
  },
];

export const layers = [
  { name: 'layers/domain', files: ['src/domain/**/*.ts'], rules: restrict([...DOMAIN, DOMAIN_PACKAGES]) },
  {
    name: 'layers/domain-tests',
    files: ['src/domain/**/*.test.ts'],
    rules: restrict([...DOMAIN, DOMAIN_TEST_PACKAGES]),
  },
  { name: 'layers/store', files: ['src/store/**/*.ts'], rules: restrict(STORE) },
  ...storeWings,
  { name: 'layers/services', files: ['src/services/**/*.ts'], rules: restrict(SERVICES) },
  { name: 'layers/presenters', files: ['src/presenters/**/*.ts'], rules: restrict(PRESENTERS) },
  { name: 'layers/http', files: ['src/http/**/*.ts'], rules: restrict(HTTP) },
  { name: 'layers/partner-api', files: ['src/partner-api/**/*.ts'], rules: restrict(PARTNER_API) },
  { name: 'layers/operator-api', files: ['src/operator-api/**/*.ts'], rules: restrict(OPERATOR_API) },
  { name: 'layers/cli', files: ['src/cli/**/*.ts'], rules: restrict(CLI) },
  { name: 'layers/config', files: ['src/config/**/*.ts'], rules: restrict(CONFIG) },
  // The root files: the entry points among them (src/app.ts) are let off below.
  { name: 'layers/root', files: ['src/*.ts'], rules: restrict(ROOT) },
  { name: 'layers/sdk', files: ['sdk/src/**/*.ts'], rules: restrict(SDK) },
  {
    name: 'layers/entry-points',
    files: ENTRY_POINTS,
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
];
