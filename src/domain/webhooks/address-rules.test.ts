import { describe, expect, test } from 'vitest';
import { isPublicAddress } from './address-rules.js';

describe('the addresses webhooks may be sent to by default', () => {
  test.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])(
    'when the address is %s, then it is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  test.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:8.8.8.8',
    'not an address',
  ])('when the address is %s, then it is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
