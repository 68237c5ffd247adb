import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../domain/errors.js';

/** Where `npm run build` puts the console, from src/http or dist/http alike. */
const CONSOLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/**
 * Only the console's own files, from this origin: no inline script or style, no other host. No
 * upgrade-insecure-requests either: gatehouse serves plain http (TLS ends at a proxy, if any), and that directive would
 * send the page's own assets to an https port where nothing answers. blob: and mediastream: are for the camera preview
 * of the QR scanner.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function setHeaders(reply: FastifyReply, path: string): void {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  // Built assets carry a content hash in their names; the page itself must always be asked for again.
  reply.header(
    'cache-control',
    path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}

/** The web console at /console/ (and / sends the browser there), from the files `npm run build` made. */
export const consolePlugin = fp(
  async (app: FastifyInstance, { dir = CONSOLE_DIR }: { dir?: string }) => {
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/', 302));
    if (!existsSync(join(dir, 'index.html'))) {
      const notBuilt = async () => {
        throw new AppError(503, 'console.not-built', 'the console is not built: run npm run build');
      };
      app.get('/console', { schema: { hide: true } }, notBuilt);
      app.get('/console/*', { schema: { hide: true } }, notBuilt);
      return;
    }
    app.get('/console', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/', 302));
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/console/',
      decorateReply: false,
      cacheControl: false,
      setHeaders,
      schemaHide: true,
    });
  },
  { name: 'console', dependencies: ['error-mapper'] },
);
