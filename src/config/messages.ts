import type { Setting } from './setting.js';

function allowedValues(setting: Setting): string {
  if (setting.allowed !== undefined) return setting.allowed;
  if (setting.type === 'boolean') return 'true or false';
  if (setting.type === 'integer') {
    const { minimum, maximum } = setting;
    if (minimum !== undefined && maximum !== undefined) return `a whole number from ${minimum} to ${maximum}`;
    return minimum === undefined ? 'a whole number' : `a whole number of at least ${minimum}`;
  }
  if (setting.enum !== undefined) return `one of ${setting.enum.join(', ')}`;
  return `at least ${setting.minLength ?? 1} characters`;
}

/** A URL's password is as secret as a token: `postgres://app:***@db/gatehouse`. */
export function withoutPassword(value: string): string {
  return value.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/**
 * `GATEHOUSE_LOG_LEVEL="verbose" is not valid: use one of fatal, error, …` — the variable, the value as given
 * (a secret's length only) and the allowed values, once, however many rules of the schema the value broke.
 */
export function describeSetting(name: string, value: string | undefined, setting: Setting): string {
  const given =
    value === undefined
      ? ''
      : setting.secret === true
        ? ` (${value.length} characters)`
        : `=${JSON.stringify(withoutPassword(value))}`;
  return `${name}${given} is not valid: use ${allowedValues(setting)}`;
}
