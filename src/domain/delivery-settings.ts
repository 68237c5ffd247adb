import { createHash } from 'node:crypto';

/**
 * The settings that decide what happens to a webhook delivery: any process on a database may fan out, claim and
 * send any endpoint's deliveries, so processes whose values differ deliver the same endpoint differently.
 */
export const DELIVERY_SETTINGS = [
  'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE',
  'GATEHOUSE_WEBHOOK_ALLOW_PRIVATE',
  'GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER',
  'GATEHOUSE_EVENT_RETENTION_DAYS',
  'GATEHOUSE_SECRET_KEY',
] as const;

export type DeliverySettingName = (typeof DELIVERY_SETTINGS)[number];
/** Each delivery setting's value as a warning may show it. */
export type DeliverySettings = Readonly<Record<DeliverySettingName, string>>;

const SECRET: ReadonlySet<DeliverySettingName> = new Set(['GATEHOUSE_SECRET_KEY']);

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A setting's value as stored and shown: a secret only as a digest (equal keys, equal digests), unset as such. */
export function shownSetting(name: DeliverySettingName, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  return SECRET.has(name) ? `sha256:${digest(value).slice(0, 12)}` : value;
}

/** One digest of every delivery setting, in a fixed order: two processes agree exactly when theirs are equal. */
export function deliveryFingerprint(settings: DeliverySettings): string {
  return digest(JSON.stringify(DELIVERY_SETTINGS.map((name) => [name, settings[name]]))).slice(0, 16);
}

/**
 * The one warning line a process starting beside others with different delivery settings logs (undefined when
 * they all agree): each setting that differs, with its value here and the others' values.
 */
export function deliverySettingsWarning(
  mine: DeliverySettings,
  others: readonly DeliverySettings[],
): string | undefined {
  const differing = DELIVERY_SETTINGS.flatMap((name) => {
    const theirs = [...new Set(others.map((other) => other[name]))].filter((value) => value !== mine[name]);
    return theirs.length === 0 ? [] : [`${name} here ${mine[name]}, elsewhere ${theirs.join(' or ')}`];
  });
  if (differing.length === 0) return undefined;
  return (
    `delivery settings differ from another gatehouse process on this database: ${differing.join('; ')}. ` +
    'Any process may send any delivery: give every process the same ones'
  );
}
