/** The keys of `T` whose values may be undefined: the ones a caller may leave out. */
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** `fields` with each undefined field left out: an option not given is absent, not set to undefined. */
export type Given<T> = { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & {
  [K in OptionalKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * The fields that were given: one whose value is undefined is left out of the copy, so that spreading it over
 * defaults, or writing it as a row, keeps what is there (`{ ...(x === undefined ? {} : { x }) }`, once).
 */
export function given<T extends Record<string, unknown>>(fields: T): Given<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Given<T>;
}
