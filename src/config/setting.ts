/**
 * What a setting of the environment is: a JSON Schema property (plain JSON Schema rather than TypeBox: loading
 * TypeBox costs every CLI call about 200 ms, a third of an operator command's budget, and this is the only schema
 * a CLI call needs), what an error should say about it, and the `Config` property it becomes.
 */
interface Schemas {
  integer: { default?: number; minimum?: number; maximum?: number };
  boolean: { default?: boolean };
  string: { default?: string; minLength?: number; pattern?: string; enum?: readonly string[] };
}
type Type = keyof Schemas;

interface Words {
  /** The allowed values in words, where the schema's pattern would not tell a person. */
  readonly allowed?: string;
  /** Never echoed in an error: only its length is. */
  readonly secret?: boolean;
}

/** One setting's schema and words, as error messages read them. */
export type Setting = { [T in Type]: { type: T } & Schemas[T] }[Type] & Words;

/** The keywords that are ours, not JSON Schema's: env-schema never sees them. */
export const OUR_KEYWORDS: ReadonlySet<string> = new Set(['allowed', 'secret', 'key', 'check', 'parse']);

/** A setting's value as env-schema returns it: absent when the setting has no default and was not given. */
export type ValueOf<S> =
  | (S extends { enum: readonly (infer E)[] }
      ? E
      : S extends { type: 'integer' }
        ? number
        : S extends { type: 'boolean' }
          ? boolean
          : string)
  | (S extends { default: unknown } ? never : undefined);

/** What becomes of a setting once env-schema has validated it. */
interface Becomes<V> {
  /** Refuses (with a ConfigError) a value the schema let through; every check runs before any parse. */
  readonly check?: (value: V, setting: Setting) => void;
  /** The `Config` value, where it is not the value as validated; it may refuse the value too (a ConfigError). */
  readonly parse?: (value: V) => unknown;
}

/** One entry of the table: the `Config` key, the type, the rest; a check and a parse take the setting's value. */
export function setting<const K extends string, T extends Type, const S extends Schemas[T] & Words>(
  key: K,
  type: T,
  rest: S & Becomes<ValueOf<S & { type: T }>>,
): { readonly key: K; readonly type: T } & S {
  return { key, type, ...rest };
}
