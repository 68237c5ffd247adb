import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { build, type TestApp } from '../fixtures/test-app.js';
import { expectReply } from '../fixtures/partner-api.js';
import { errorEnvelope } from '../fixtures/wire-bodies.js';

const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "media-src 'self' blob: mediastream:; connect-src 'self'; font-src 'self'; base-uri 'none'; " +
  "form-action 'self'; frame-ancestors 'none'";

describe('the console is served by gatehouse itself', () => {
  const opened: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0)) await close();
  });

  /** An app whose console folder holds what a build would: index.html and one hashed asset. */
  async function withConsole(built: boolean): Promise<TestApp> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-console-files-'));
    opened.push(() => rmSync(dir, { recursive: true, force: true }));
    if (built) {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>gatehouse console</title>');
      writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'export {};');
    }
    return build({ consoleDir: dir });
  }

  test('when / or /console is asked for, then the browser is sent to /console/', async () => {
    const t = await withConsole(true);

    const root = await t.app.inject({ method: 'GET', url: '/' });
    const bare = await t.app.inject({ method: 'GET', url: '/console' });

    expect([root.statusCode, root.headers.location]).toEqual([302, '/console/']);
    expect([bare.statusCode, bare.headers.location]).toEqual([302, '/console/']);
  });

  test('when the page and an asset are asked for, then they come with the strict policy, the page never cached and the asset for good', async () => {
    const t = await withConsole(true);

    const page = await t.app.inject({ method: 'GET', url: '/console/' });
    const asset = await t.app.inject({ method: 'GET', url: '/console/assets/index-AbC123.js' });

    expect({ status: page.statusCode, body: page.body }).toEqual({
      status: 200,
      body: '<!doctype html><title>gatehouse console</title>',
    });
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    expect({ status: asset.statusCode, body: asset.body }).toEqual({ status: 200, body: 'export {};' });
    expect(asset.headers).toMatchObject({
      'content-security-policy': POLICY,
      'cache-control': 'public, max-age=31536000, immutable',
    });
  });

  test.each([
    [
      'a file the console does not have is asked for',
      '404 in the envelope',
      true,
      '/console/assets/missing.js',
      404,
      errorEnvelope('route.not-found', 'no route matches this path'),
    ],
    [
      'the console was never built',
      '/console/ says how to build it',
      false,
      '/console/',
      503,
      errorEnvelope('console.not-built', 'the console is not built: run npm run build'),
    ],
  ])('when %s, then %s', async (_when, _then, built, url, status, body) => {
    const t = await withConsole(built);

    expectReply(await t.app.inject({ method: 'GET', url }), status, body);
  });
});
