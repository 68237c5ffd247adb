import { describe, expect, test } from 'vitest';
import {
  deliveryFingerprint,
  deliverySettingsWarning,
  shownSetting,
  type DeliverySettings,
} from './delivery-settings.js';

const MINE: DeliverySettings = {
  GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '5,300',
  GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'false',
  GATEHOUSE_WEBHOOK_ENDPOINTS_PER_PARTNER: '10',
  GATEHOUSE_EVENT_RETENTION_DAYS: '30',
  GATEHOUSE_SECRET_KEY: '(unset)',
};

describe('delivery settings compared between processes', () => {
  test('when every other process has the same settings, or there is none, then no warning and one fingerprint', () => {
    expect(deliverySettingsWarning(MINE, [])).toBeUndefined();
    expect(deliverySettingsWarning(MINE, [{ ...MINE }, { ...MINE }])).toBeUndefined();
    expect(deliveryFingerprint({ ...MINE })).toBe(deliveryFingerprint(MINE));
    expect(deliveryFingerprint(MINE)).toMatch(/^[0-9a-f]{16}$/);
  });

  test('when others differ, then one line names each differing setting with the value here and theirs', () => {
    const others = [
      { ...MINE, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,2' },
      { ...MINE, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '3', GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true' },
      { ...MINE },
    ];

    expect(deliverySettingsWarning(MINE, others)).toBe(
      'delivery settings differ from another gatehouse process on this database: ' +
        'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE here 5,300, elsewhere 1,2 or 3; ' +
        'GATEHOUSE_WEBHOOK_ALLOW_PRIVATE here false, elsewhere true. ' +
        'Any process may send any delivery: give every process the same ones',
    );
    expect(deliveryFingerprint(others[0]!)).not.toBe(deliveryFingerprint(MINE));
  });

  test('when a setting is secret, then only a digest of it is shown, equal for equal keys', () => {
    const key = 'k'.repeat(40);

    expect(shownSetting('GATEHOUSE_SECRET_KEY', key)).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(shownSetting('GATEHOUSE_SECRET_KEY', key)).toBe(shownSetting('GATEHOUSE_SECRET_KEY', key));
    expect(shownSetting('GATEHOUSE_SECRET_KEY', key)).not.toContain('kkkk');
    expect(shownSetting('GATEHOUSE_SECRET_KEY', undefined)).toBe('(unset)');
    expect(shownSetting('GATEHOUSE_WEBHOOK_RETRY_SCHEDULE', '5,300')).toBe('5,300');
  });
});
