import { describe, expect, test } from 'vitest';
import { isPublicAddress, literalAddress } from './address-rules.js';

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
    '192.88.99.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'ff02::1',
    'not an address',
  ])('when the address is %s, then it is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('IPv6 addresses that carry an IPv4 address', () => {
  // Each form with a private and a public IPv4 inside, in hex, mixed and uncompressed notation.
  test.each([
    ['IPv4-mapped', '::ffff:10.0.0.1', false],
    ['IPv4-mapped', '::ffff:a00:1', false],
    ['IPv4-mapped', '0:0:0:0:0:FFFF:7F00:0001', false],
    ['IPv4-mapped', '::ffff:169.254.169.254', false],
    ['IPv4-mapped', '::ffff:8.8.8.8', true],
    ['IPv4-mapped', '::ffff:808:808', true],
    ['NAT64', '64:ff9b::10.0.0.1', false],
    ['NAT64', '64:ff9b::7f00:1', false],
    ['NAT64', '64:ff9b::192.88.99.1', false],
    ['NAT64', '64:ff9b::8.8.8.8', true],
    ['6to4', '2002:a00:1::1', false],
    ['6to4', '2002:c0a8:101::', false],
    ['6to4', '2002:c058:6301::1', false],
    ['6to4', '2002:808:808::1', true],
    ['6to4', '2002:5db8:d822:1::1', true],
  ])('when a %s address is %s, then it is judged by the IPv4 address inside', (_form, address, allowed) => {
    expect(isPublicAddress(address)).toBe(allowed);
  });

  test.each([
    ['IPv4-compatible', '::10.0.0.1'],
    ['IPv4-compatible', '::a00:1'],
    ['IPv4-compatible', '::8.8.8.8'],
    ['IPv4-translated', '::ffff:0:10.0.0.1'],
    ['IPv4-translated', '::ffff:0:808:808'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['local-use NAT64', '64:ff9b:1:808:808::'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    ['Teredo', '2001:0:808:808:0:0:f7f7:f7f7'],
  ])('when a %s address is %s, then it is refused whatever it carries', (_form, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each([
    ['http://[::ffff:10.0.0.1]/', false],
    ['http://[::a00:1]/', false],
    ['http://[0:0:0:0:0:ffff:10.0.0.1]:8080/in', false],
    ['http://[64:ff9b::127.0.0.1]/', false],
    ['http://[2002:7f00:1::]/', false],
    ['http://[::ffff:8.8.8.8]/', true],
    ['http://[2002:808:808::1]/', true],
  ])('when a URL is %s, then its literal host is allowed: %s', (url, allowed) => {
    const literal = literalAddress(new URL(url).hostname);
    expect(literal).toBeDefined();
    expect(isPublicAddress(literal ?? '')).toBe(allowed);
  });
});
