import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console, built into dist/console and served by gatehouse at /console/. Everything it loads is in that
 * folder: no CDN, and no inline script or style, so the Content-Security-Policy stays strict.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // The preload polyfill would be one more script; every browser the console supports preloads modules itself.
    modulePreload: { polyfill: false },
    // Assets are files, never data: URLs inlined into the bundle.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 200,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
