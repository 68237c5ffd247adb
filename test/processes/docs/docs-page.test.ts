import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumArgs } from '../../fixtures/processes/browser.js';
import { useGatehouseProcesses } from '../../fixtures/processes/gatehouse-process.js';

/*
 * GET /docs in a real headless Chromium (Debian's, at /usr/bin/chromium: .ci/run installs it), served by a real
 * `gatehouse serve`. The page must render the partner API from the server's own assets: no CDN, no other host.
 * In the 'processes' project so the browser never competes with the parallel component suite for CPU.
 */
const DOCS_HOST = 'docs.gatehouse.test';

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
      executablePath: CHROMIUM,
      headless: true,
      // A host name other than loopback, resolved to the server without DNS.
      args: chromiumArgs(DOCS_HOST),
    });
    cleanups.push(() => context.close());
    return context;
  }

  /**
   * Opens /docs at `url` (served by `server`) and asserts the page rendered the partner API from its own origin:
   * the validate endpoint listed, no other host asked, nothing failed, no console error.
   */
  async function expectDocsRender(url: string): Promise<void> {
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

    const response = await page.goto(url, { waitUntil: 'networkidle' });
    const validate = page.locator('.opblock-summary-path[data-path="/access/v1/validate"]');
    // The page renders the whole OpenAPI document in the browser: seconds on a busy CI machine, not a hang.
    await validate.first().waitFor({ state: 'visible', timeout: 40_000 });

    expect(response?.status()).toBe(200);
    // Clean because nothing is allowed that the page does not need, not because the policy was dropped.
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    // Over plain http this would send the page's own assets to https, where nothing answers.
    expect(policy).not.toMatch(/upgrade-insecure-requests/);
    expect(await validate.count()).toBe(1);
    const operation = page.locator('.opblock-post', { has: validate });
    await expect(operation.locator('.opblock-summary-description').textContent()).resolves.toBe(
      "Validate a member's check-in at the gym",
    );
    const origin = new URL(url).origin;
    const elsewhere = requested.filter(
      (asked) => !asked.startsWith('data:') && new URL(asked).origin !== origin,
    );
    expect(elsewhere).toEqual([]);
    expect(requested).toContain(`${origin}/docs/json`);
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }

  async function serveDocs() {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-docs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return spawnGatehouse({ GATEHOUSE_DATABASE_URL: `sqlite:${join(dir, 'gatehouse.db')}` });
  }

  it('when /docs is opened, then it lists the validate endpoint, asks no other host and logs no error', async () => {
    const server = await serveDocs();

    await expectDocsRender(`${server.baseUrl}/docs`);
  });

  it('when /docs is opened over plain http through a host name that is not loopback, then it renders just the same', async () => {
    const server = await serveDocs();
    const { port } = new URL(server.baseUrl);

    // Chromium treats 127.0.0.1 and localhost as secure origins; docs.gatehouse.test (resolved to the server by the
    // browser itself) is what an operator's http://gatehouse.internal:8080/docs looks like to it.
    await expectDocsRender(`http://${DOCS_HOST}:${port}/docs`);
  });
});
