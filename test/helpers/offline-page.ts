/**
 * A report page as its reader opens it: Debian's chromium, headless and offline. Every console
 * error, page error and network request is a problem (a self-contained report makes none).
 * For the tests of every report (run, diff, load): one way to launch and to listen.
 */
import { existsSync } from 'node:fs';
import type { Page } from '@playwright/test';

const CHROMIUM = '/usr/bin/chromium';

/** Open `file`, run `body` on its page, and give back what `body` returned and the problems seen meanwhile. */
export async function onOfflinePage<T>(
  file: string,
  body: (page: Page) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<{ value: T; problems: string[] }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  // Loaded when used: the load tests import their helpers without a browser.
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage(viewport ? { viewport } : {});
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) problems.push(`network request ${r.url()}`);
    });
    await page.goto(`file://${file}`);
    return { value: await body(page), problems };
  } finally {
    await browser.close();
  }
}
