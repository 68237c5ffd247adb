import envSchema from 'env-schema';
import { ConfigError } from './errors.js';
import { describeSetting } from './messages.js';
import { DEFAULT_DATABASE_URL } from './rules.js';
import { OUR_KEYWORDS, type Setting } from './setting.js';
import { SETTINGS, type Env, type FromSettings, type Name } from './settings.js';

export { ConfigError, DEFAULT_DATABASE_URL, SETTINGS };

/** Every setting's value, and what two of them tell besides. */
export type Config = FromSettings & {
  /** True when GATEHOUSE_DATABASE_URL was not set: only then may demo data be seeded. */
  readonly databaseUrlIsDefault: boolean;
  /** The first of adminTokens (kept for callers that know one token). */
  readonly adminToken: string | undefined;
};

/** A setting as the loader walks the table: its check and parse take the value env-schema gave for it. */
type Entry = Setting & {
  readonly key: string;
  readonly check?: (value: unknown, setting: Setting) => void;
  readonly parse?: (value: unknown) => unknown;
};
const ENTRIES = Object.entries(SETTINGS) as [Name, Entry][];

/** The JSON Schema env-schema validates with: each setting without our own keywords. */
function jsonSchema() {
  const properties = Object.fromEntries(
    ENTRIES.map(([name, setting]) => [
      name,
      Object.fromEntries(Object.entries(setting).filter(([keyword]) => !OUR_KEYWORDS.has(keyword))),
    ]),
  );
  return { type: 'object', properties } as const;
}

/** One line per variable env-schema refused, whatever number of rules it broke. */
function describeInvalid(error: unknown, given: Record<string, string | undefined>): string {
  const failures = (error as { errors?: { instancePath?: string }[] }).errors ?? [];
  const names = new Set(failures.map((failure) => failure.instancePath?.replace(/^\//, '') ?? ''));
  const lines = [...names]
    .filter((name): name is Name => name in SETTINGS)
    .map((name) => describeSetting(name, given[name], SETTINGS[name]));
  return lines.length > 0 ? lines.join('\n') : `invalid configuration: ${(error as Error).message}`;
}

/** Every check, then the one rule between two settings, then every parse: in the table's order. */
function fromSettings(env: Env): FromSettings {
  for (const [name, setting] of ENTRIES) setting.check?.(env[name], setting);
  if (env.GATEHOUSE_HEADERS_TIMEOUT_MS > env.GATEHOUSE_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('GATEHOUSE_HEADERS_TIMEOUT_MS must not exceed GATEHOUSE_REQUEST_TIMEOUT_MS');
  }
  const values = ENTRIES.map(([name, { key, parse }]) => [key, parse ? parse(env[name]) : env[name]]);
  return Object.fromEntries(values) as FromSettings;
}

/** The only reader of the environment: validates once and returns a frozen config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name.startsWith('GATEHOUSE_') && value !== ''),
  );
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: jsonSchema(), data: relevant, env: false, dotenv: false });
  } catch (error) {
    throw new ConfigError(describeInvalid(error, relevant));
  }
  const settings = fromSettings(parsed);
  return Object.freeze({
    ...settings,
    databaseUrlIsDefault: parsed.GATEHOUSE_DATABASE_URL === undefined,
    adminToken: settings.adminTokens[0],
  });
}
