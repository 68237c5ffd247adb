import { InputError } from '../domain/errors.js';

/** The parts of a route schema that decide its 400s. */
export interface InputSchemas {
  readonly params?: unknown;
  readonly querystring?: unknown;
  readonly body?: unknown;
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

const propertiesOf = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
const requiredOf = (schema: unknown): string[] =>
  (schema as { required?: string[] } | undefined)?.required ?? [];
const malformed = (field: string) =>
  new InputError(
    field,
    field === 'platform_id' ? 'must be a string of 13 digits' : 'must be a positive integer',
  );

/**
 * The 400 an operator route answers first for its likeliest mistake, in the order its input is checked: a
 * malformed path parameter, then a body without its first required field (or that is not JSON), then a query
 * without a required parameter, or with a bad page size, id or time. Undefined: the route takes no input, and
 * answers no 400. `test/docs/openapi-operator-errors.test.ts` makes each of these requests and compares.
 */
export function badInputExample(method: string, url: string, schema: InputSchemas): InputError | undefined {
  const [, param] = /:([a-z_]+)/.exec(url) ?? [];
  if (param !== undefined) return malformed(param);
  if (WITH_BODY.has(method)) {
    const [field] = requiredOf(schema.body);
    if (field === undefined) return new InputError('body', 'malformed JSON');
    return field === 'platform_id' ? malformed(field) : new InputError(field, 'is required');
  }
  const [required] = requiredOf(schema.querystring);
  if (required === 'platform_id') return malformed(required);
  if (required !== undefined) return new InputError(required, 'is required');
  const query = propertiesOf(schema.querystring);
  if (query.includes('limit')) return new InputError('limit', 'must be an integer from 1 to 1000');
  const id = query.find((name) => name.endsWith('_id'));
  if (id !== undefined) return malformed(id);
  if (query.includes('from')) return new InputError('from', 'must be an ISO-8601 date or date-time');
  return undefined;
}
