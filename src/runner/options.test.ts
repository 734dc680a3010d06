/** Run options: each default stated once, in RUN_OPTIONS (yargs); the schema checks, it does not default again. */
import { expect, test } from '@playwright/test';
import { z } from 'zod';
import yargs from 'yargs';
import { parseRunOptions, RUN_OPTIONS, RunOptions, runBuilder, runDefaults } from './options.js';

const camel = (k: string) => k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

test('no option has a default in both RUN_OPTIONS and the schema; the defaults alone parse', () => {
  const shape = RunOptions.shape as Record<string, z.ZodType>;
  const twice = Object.entries(RUN_OPTIONS)
    .filter(([, d]) => 'default' in d)
    .map(([k]) => camel(k))
    .filter((k) => shape[k] instanceof z.ZodDefault);
  expect(twice).toEqual([]);
  expect(parseRunOptions(runDefaults())).toMatchObject({
    html: true,
    reporter: 'progress',
    transcripts: 'all',
    rateAlongside: true,
    workers: 2,
  });
});

test('the rate window is one option, --rate-window; --embedded-window still sets it, an alias --help lists beside it', async () => {
  expect(Object.keys(RUN_OPTIONS).filter((k) => k.includes('window'))).toEqual(['rate-window']);
  for (const flag of ['--rate-window', '--embedded-window'])
    expect(parseRunOptions(await runBuilder(yargs([flag, '7'])).parseAsync()).rateWindow).toBe(7);
  expect(parseRunOptions(await runBuilder(yargs([])).parseAsync()).rateWindow).toBeUndefined();
  expect(RUN_OPTIONS['rate-window'].alias).toBe('embedded-window');
  expect(await runBuilder(yargs([])).getHelp()).toMatch(/--rate-window, --embedded-window/);
});
