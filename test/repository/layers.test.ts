import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The project's own ESLint configuration, as `npm run lint` runs it, over source text that is not on disk: the
 * type-aware rules are switched off (they need the file in the TypeScript program), the layer rules are not.
 */
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
});

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`);
}

describe('the layers, as npm run lint enforces them', () => {
  test.each([
    [
      'src/http/crossing.ts',
      "import type { Store } from '../store/store.js';\nexport type Held = Store;\n",
      'no-restricted-imports: \'../store/store.js\' import is restricted from being used by a pattern. Routes never import the store: they call a service, or take what they need from the app (see docs/architecture.md, "Layers").',
    ],
    [
      'src/partner-api/crossing.ts',
      "export { findGym } from '../store/catalog-repository.js';\n",
      'no-restricted-imports: \'../store/catalog-repository.js\' import is restricted from being used by a pattern. Routes never import the store: they call a service, or take what they need from the app (see docs/architecture.md, "Layers").',
    ],
    [
      'src/operator-api/crossing.ts',
      "export const load = () => import('../store/create-store.js');\n",
      'no-restricted-syntax: Routes never import the store: they call a service, or take what they need from the app (see docs/architecture.md, "Layers").',
    ],
    [
      'src/operator-api/crossing.ts',
      "import { principalOf } from '../partner-api/authenticate.js';\nexport const p = principalOf;\n",
      'no-restricted-imports: \'../partner-api/authenticate.js\' import is restricted from being used by a pattern. The two APIs share through src/http, src/presenters or the services, never directly (see docs/architecture.md, "Layers").',
    ],
    [
      'src/domain/decisions/crossing.ts',
      "import { formatInstant } from '../../presenters/records.js';\nexport const f = formatInstant;\n",
      'no-restricted-imports: \'../../presenters/records.js\' import is restricted from being used by a pattern. The domain imports only the domain: rules stay pure, with no I/O (see docs/architecture.md, "Layers").',
    ],
    [
      'src/domain/crossing.ts',
      "import { sql } from 'kysely';\nexport const q = sql;\n",
      'no-restricted-imports: \'kysely\' import is restricted from being used by a pattern. The domain imports no package, only node: built-ins: its rules run anywhere (see docs/architecture.md, "Layers").',
    ],
    [
      'src/domain/crossing.ts',
      "import { loadConfig } from '../config/index.js';\nexport const c = loadConfig;\n",
      'no-restricted-imports: \'../config/index.js\' import is restricted from being used by a pattern. The domain does not read configuration: a service passes it what it needs (see docs/architecture.md, "Layers").',
    ],
    [
      'src/store/dialects/crossing.ts',
      "import type { Services } from '../../services/index.js';\nexport type S = Services;\n",
      'no-restricted-imports: \'../../services/index.js\' import is restricted from being used by a pattern. The store never imports services, presenters, HTTP or the CLI: it carries out changes the domain decided (see docs/architecture.md, "Layers").',
    ],
    [
      'src/store/crossing.ts',
      "import type { FastifyRequest } from 'fastify';\nexport type R = FastifyRequest;\n",
      'no-restricted-imports: \'fastify\' import is restricted from being used by a pattern. The store knows nothing of HTTP (see docs/architecture.md, "Layers").',
    ],
    [
      'src/services/crossing.ts',
      "import { sql } from 'kysely';\nexport const q = sql;\n",
      'no-restricted-imports: \'kysely\' import is restricted from being used by a pattern. SQL and database drivers live in src/store only (see docs/architecture.md, "Layers").',
    ],
    [
      'src/services/crossing.ts',
      "import { presentGym } from '../presenters/records.js';\nexport const p = presentGym;\n",
      'no-restricted-imports: \'../presenters/records.js\' import is restricted from being used by a pattern. Services are called by the APIs and the CLI, never the other way round (see docs/architecture.md, "Layers").',
    ],
    [
      'src/presenters/crossing.ts',
      "import type { Services } from '../services/index.js';\nexport type S = Services;\n",
      'no-restricted-imports: \'../services/index.js\' import is restricted from being used by a pattern. Presenters turn domain records into wire shapes and import only the domain (see docs/architecture.md, "Layers").',
    ],
    [
      'src/cli/crossing.ts',
      "import { presentGym } from '../operator-api/catalog-routes.js';\nexport const p = presentGym;\n",
      'no-restricted-imports: \'../operator-api/catalog-routes.js\' import is restricted from being used by a pattern. CLI commands go through the services and the shared presenters, like the operator API (see docs/architecture.md, "Layers").',
    ],
    [
      'src/cli/crossing.ts',
      "export const load = () => import('../store/store.js');\n",
      'no-restricted-syntax: CLI commands go through the services and the shared presenters, like the operator API (see docs/architecture.md, "Layers").',
    ],
    [
      'src/store/crossing.ts',
      "import type { Config } from '../config/index.js';\nexport type C = Config;\n",
      'no-restricted-imports: \'../config/index.js\' import is restricted from being used by a pattern. The store takes its options from its creator, not from the configuration module (see docs/architecture.md, "Layers").',
    ],
    [
      'src/config/crossing.ts',
      "import { errorEnvelope } from '../http/envelope.js';\nexport const e = errorEnvelope;\n",
      'no-restricted-imports: \'../http/envelope.js\' import is restricted from being used by a pattern. The configuration imports only the domain: every layer reads it, so it reads no layer (see docs/architecture.md, "Layers").',
    ],
    [
      'src/config/crossing.ts',
      "import type { Store } from '../store/store.js';\nexport type S = Store;\n",
      'no-restricted-imports: \'../store/store.js\' import is restricted from being used by a pattern. The configuration imports only the domain: every layer reads it, so it reads no layer (see docs/architecture.md, "Layers").',
    ],
    [
      'src/config/crossing.ts',
      "export const load = () => import('../services/index.js');\n",
      'no-restricted-syntax: The configuration imports only the domain: every layer reads it, so it reads no layer (see docs/architecture.md, "Layers").',
    ],
    [
      'src/crossing.ts',
      "import { sendCsv } from './http/csv.js';\nexport const s = sendCsv;\n",
      'no-restricted-imports: \'./http/csv.js\' import is restricted from being used by a pattern. A module at the root of src/ that is not an entry point imports only the domain: any layer may import it (see docs/architecture.md, "Layers").',
    ],
    [
      'sdk/src/crossing.ts',
      "import type { ValidateBody } from '../../src/partner-api/schemas.js';\nexport type B = ValidateBody;\n",
      "no-restricted-imports: '../../src/partner-api/schemas.js' import is restricted from being used by a pattern. The SDK is published alone: it imports nothing outside sdk/src (its wire types are written out, and test/sdk/wire-types.test.ts holds them equal to the server’s schemas).",
    ],
  ])('when %s makes a crossing (%j), then the lint fails with why', async (filePath, code, expected) => {
    expect(await layerErrors(filePath, code)).toEqual([expected]);
  });

  test.each([
    [
      'src/domain/decisions/allowed.ts',
      "import { randomUUID } from 'node:crypto';\nimport type { Write } from '../writes.js';\nexport type W = Write;\nexport const id = randomUUID;\n",
    ],
    [
      'src/domain/allowed.test.ts',
      "import { expect } from 'vitest';\nimport fc from 'fast-check';\nexport const e = [expect, fc];\n",
    ],
    [
      'src/store/allowed.ts',
      "import { sql } from 'kysely';\nimport type { Checkin } from '../domain/entities.js';\nexport type C = Checkin;\nexport const q = sql;\n",
    ],
    ['src/services/allowed.ts', "import type { Store } from '../store/store.js';\nexport type S = Store;\n"],
    [
      'src/presenters/allowed.ts',
      "import type { Options } from 'csv-stringify';\nimport type { Gym } from '../domain/entities.js';\nexport type O = [Options, Gym];\n",
    ],
    [
      'src/operator-api/allowed.ts',
      "import { presentGym } from '../presenters/records.js';\nimport type { Services } from '../services/index.js';\nimport { sendCsv } from '../http/csv.js';\nexport type S = Services;\nexport const p = [presentGym, sendCsv];\n",
    ],
    [
      'src/cli/allowed.ts',
      "import { presentGym } from '../presenters/records.js';\nexport const load = () => import('../services/index.js');\nexport const p = presentGym;\n",
    ],
    [
      'src/config/allowed.ts',
      "import envSchema from 'env-schema';\nimport { isIP } from 'node:net';\nimport { parseRetrySchedule } from '../domain/webhooks/retry-schedule.js';\nimport { ConfigError } from './errors.js';\nexport const c = [envSchema, isIP, parseRetrySchedule, ConfigError];\n",
    ],
    [
      'src/services/allowed.ts',
      "import type { Config } from '../config/index.js';\nexport type C = Config;\n",
    ],
    [
      'src/allowed.ts',
      "import { readFileSync } from 'node:fs';\nimport type { Clock } from './domain/clock.js';\nexport type C = Clock;\nexport const r = readFileSync;\n",
    ],
    [
      'src/app.ts',
      "import { createStore } from './store/create-store.js';\nimport { loadConfig } from './config/index.js';\nexport const s = [createStore, loadConfig];\n",
    ],
    [
      'src/cli/serve.ts',
      "import { createStore } from '../store/create-store.js';\nimport { buildApp } from '../app.js';\nexport const s = [createStore, buildApp];\n",
    ],
  ])('when %s imports what its layer may, then the lint is silent', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});

describe('inside the store, as npm run lint enforces it', () => {
  const WHY = 'see docs/architecture.md, "The write path"';
  const ONE_DIALECT = `One dialect never imports the other: what both need lives in src/store/changes/ (${WHY}).`;
  test.each([
    [
      'src/store/changes/crossing.ts',
      "import { jsonRows } from '../dialects/postgres/postgres-json-rows.js';\nexport const j = jsonRows;\n",
      `no-restricted-imports: '../dialects/postgres/postgres-json-rows.js' import is restricted from being used by a pattern. The change engine runs on every dialect and imports none of them; a dialect calls the engine (${WHY}).`,
    ],
    [
      'src/store/dialects/sqlite/crossing.ts',
      "import { jsonRows } from '../postgres/postgres-json-rows.js';\nexport const j = jsonRows;\n",
      `no-restricted-imports: '../postgres/postgres-json-rows.js' import is restricted from being used by a pattern. ${ONE_DIALECT}`,
    ],
    [
      'src/store/dialects/postgres/crossing.ts',
      "export const load = () => import('../sqlite/sqlite-statements.js');\n",
      `no-restricted-syntax: ${ONE_DIALECT}`,
    ],
    [
      'src/store/ledger/crossing.ts',
      "import { createSqliteStore } from '../dialects/sqlite/sqlite-store.js';\nexport const c = createSqliteStore;\n",
      `no-restricted-imports: '../dialects/sqlite/sqlite-store.js' import is restricted from being used by a pattern. A repository is query-builder code every dialect may call: it imports no dialect (${WHY}).`,
    ],
    [
      'src/store/access/crossing.ts',
      "import { memberLockKey } from '../changes/member-lock.js';\nexport const k = memberLockKey;\n",
      `no-restricted-imports: '../changes/member-lock.js' import is restricted from being used by a pattern. Of the change engine a repository imports only the shared rows and rules (changes/rows.ts, changes/rule-sql.ts): the engine calls repositories, not the other way round (${WHY}).`,
    ],
    [
      'src/store/changes/crossing.ts',
      "import type { FastifyRequest } from 'fastify';\nexport type R = FastifyRequest;\n",
      'no-restricted-imports: \'fastify\' import is restricted from being used by a pattern. The store knows nothing of HTTP (see docs/architecture.md, "Layers").',
    ],
  ])('when %s makes a crossing (%j), then the lint fails with why', async (filePath, code, expected) => {
    expect(await layerErrors(filePath, code)).toEqual([expected]);
  });

  test.each([
    [
      'src/store/events/allowed.ts',
      "import { eventRow } from '../changes/rows.js';\nimport { waitingAt } from '../changes/rule-sql.js';\nexport const e = [eventRow, waitingAt];\n",
    ],
    [
      'src/store/dialects/sqlite/allowed.ts',
      "import { runChange } from '../../changes/unit-of-work.js';\nimport { findGym } from '../../catalog/catalog-repository.js';\nexport const r = [runChange, findGym];\n",
    ],
    [
      'src/store/create-store.ts',
      "import { createSqliteStore } from './dialects/sqlite/sqlite-store.js';\nexport const c = createSqliteStore;\n",
    ],
  ])('when %s imports what its wing may, then the lint is silent', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});
