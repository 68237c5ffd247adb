import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/*
 * One headless Chromium (Debian's, /usr/bin/chromium) per test file, a fresh context per test. The console is opened
 * through a host name that is not loopback, as an operator's http://gatehouse.internal:8080 would be: Chromium treats
 * loopback as a secure origin, which would hide a policy that only works there.
 */
export const CONSOLE_HOST = 'console.gatehouse.test';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=MAP ${CONSOLE_HOST} 127.0.0.1`,
];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Where the tests leave their screenshots (not committed): test-artifacts/console/<name>.png. */
export const SCREENSHOTS = join(process.cwd(), 'test-artifacts', 'console');

export interface ConsolePage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Every console error, page error and request to another origin so far: a clean page has none. */
  readonly problems: string[];
}

export function useBrowser() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const profile = mkdtempSync(join(tmpdir(), 'gatehouse-console-'));
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  /** A new page at `baseUrl` (through the console's host name) at `width` px, watched for problems. */
  return async function openConsole(baseUrl: string, width = 1440): Promise<ConsolePage> {
    if (browser === undefined) throw new Error('the browser did not start');
    const origin = `http://${CONSOLE_HOST}:${new URL(baseUrl).port}`;
    const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => void problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== origin) {
        problems.push(`asked another host: ${url}`);
      }
    });
    await page.goto(`${origin}/`);
    return { page, context, problems };
  };
}

/** axe-core run inside the page (injected by evaluate: a script tag would be refused by the policy, rightly). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{
            violations: {
              id: string;
              impact: string;
              nodes: { target: string[]; failureSummary?: string }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.targets.join(', ')}`);
}

/** Screenshots of the page as it is now, at a phone's width and a desk's, for the record. */
export async function screenshots(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    // Usable at a phone's width: nothing wider than the screen, so nothing hides off its edge.
    expect(
      await page.evaluate<number>('document.documentElement.scrollWidth'),
      `${name} at ${width} px`,
    ).toBe(width);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

/** The page is clean: no console error, no CSP violation, nothing asked of another host, no serious a11y issue. */
export async function expectClean(console: ConsolePage): Promise<void> {
  expect(await seriousViolations(console.page)).toEqual([]);
  expect(console.problems).toEqual([]);
}
