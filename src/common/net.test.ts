/** Loopback detection and source-address lists (one home for the whole project). */
import { expect, test } from '@playwright/test';
import { expandAddressRange } from './address-range.js';
import { isLoopbackHost, isLoopbackUrl, parseSourceAddresses } from './net.js';

test('loopback hosts: 127/8, ::1, IPv4-mapped 127.x, localhost — nothing else', () => {
  for (const h of [
    '127.0.0.1',
    '127.255.3.4',
    'localhost',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
    '::ffff:7f00:1',
  ])
    expect(isLoopbackHost(h), h).toBe(true);
  for (const h of [
    '10.0.0.1',
    '192.168.1.1',
    '128.0.0.1',
    'example.com',
    'localhost.example.com',
    '::2',
    '::ffff:10.0.0.1',
    '0.0.0.0',
    '',
  ])
    expect(isLoopbackHost(h), h).toBe(false);
});

test('loopback URLs read the host of the URL, not a prefix of the text', () => {
  expect(isLoopbackUrl('http://127.0.0.1:8000')).toBe(true);
  expect(isLoopbackUrl('https://[::ffff:127.0.0.1]:8443/x')).toBe(true);
  expect(isLoopbackUrl('http://127.0.0.1.example.com/')).toBe(false);
  expect(isLoopbackUrl('http://user@127.0.0.1@evil.example/')).toBe(false);
  expect(isLoopbackUrl('not a url')).toBe(false);
});

test('source addresses: ranges within a /24, lists, none; only loopback', () => {
  expect(parseSourceAddresses('127.0.0.2-127.0.0.4,127.1.0.9')).toEqual([
    '127.0.0.2',
    '127.0.0.3',
    '127.0.0.4',
    '127.1.0.9',
  ]);
  expect(parseSourceAddresses('none')).toEqual([]);
  expect(parseSourceAddresses(undefined)).toEqual([]);
  expect(() => parseSourceAddresses('10.0.0.1')).toThrow(/not a loopback/);
  expect(() => parseSourceAddresses('127.0.0.5-127.0.0.2')).toThrow(/ascending/);
  expect(() => parseSourceAddresses('127.0.0.1-127.0.1.2')).toThrow(/same \/24/);
});

test('one range expander for the runner and the k6 scripts: same /24, ascending, or not a range', () => {
  expect(expandAddressRange('127.0.0.2-127.0.0.4')).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4']);
  expect(expandAddressRange('127.0.0.4-127.0.0.2')).toBeUndefined();
  expect(expandAddressRange('127.0.0.2-127.0.1.4')).toBeUndefined();
  expect(expandAddressRange('127.0.0.2')).toBeUndefined();
  expect(() => parseSourceAddresses('127.0.0.4-127.0.0.2')).toThrow(/same \/24 and ascending/);
});
