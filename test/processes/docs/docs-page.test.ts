import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useGatehouseProcesses } from '../helpers/gatehouse-process.js';

/*
 * GET /docs in a real headless Chromium (Debian's, at /usr/bin/chromium: .ci/run installs it), served by a real
 * `gatehouse serve`. The page must render the partner API from the server's own assets: no CDN, no other host.
 * In the 'processes' project so the browser never competes with the parallel component suite for CPU.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('the docs page', () => {
  const spawnGatehouse = useGatehouseProcesses();
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function browser(): Promise<BrowserContext> {
    const profile = mkdtempSync(join(tmpdir(), 'gatehouse-chromium-'));
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
    cleanups.push(() => context.close());
    return context;
  }

  it('when /docs is opened, then it lists the validate endpoint, asks no other host and logs no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-docs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await spawnGatehouse({ GATEHOUSE_DATABASE_URL: `sqlite:${join(dir, 'gatehouse.db')}` });
    const context = await browser();
    const requested: string[] = [];
    const failed: string[] = [];
    const consoleErrors: string[] = [];
    context.on('request', (request) => void requested.push(request.url()));
    context.on(
      'requestfailed',
      (request) => void failed.push(`${request.url()} ${request.failure()?.errorText}`),
    );
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => void consoleErrors.push(error.message));

    const response = await page.goto(`${server.baseUrl}/docs`, { waitUntil: 'networkidle' });
    const validate = page.locator('.opblock-summary-path[data-path="/access/v1/validate"]');
    await validate.first().waitFor({ state: 'visible', timeout: 15_000 });

    expect(response?.status()).toBe(200);
    // Clean because nothing is allowed that the page does not need, not because the policy was dropped.
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(await validate.count()).toBe(1);
    const operation = page.locator('.opblock-post', { has: validate });
    await expect(operation.locator('.opblock-summary-description').textContent()).resolves.toBe(
      "Validate a member's check-in at the gym",
    );
    const origin = new URL(server.baseUrl).origin;
    const elsewhere = requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(requested).toContain(`${origin}/docs/json`);
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
