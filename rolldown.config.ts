import { defineConfig } from 'rolldown';

/**
 * The command line bundled, dist/cli/main.js and its `main-*.js` parts, from what tsc emitted (dist/cli/program.js
 * and the modules it imports). Node then opens a few files at start instead of some 600 (Kysely alone is 280
 * modules): every `gatehouse` command and `serve` starts in about half the CPU time. They sit two folders down
 * from the checkout like the modules they hold, so the paths those find from their own location (package.json,
 * dist/console) hold in both. The webhook threads' code (tsc's dist/cli/delivery-thread-main.js and
 * sender-thread-main.js) is bundled the same way, as dist/cli/delivery-thread-bundle.js and sender-thread-bundle.js,
 * which `serve` starts beside its own. No bundle is written over a file tsc emits: tsc's build is incremental and
 * leaves an unchanged module's output alone, so a bundle written in its place would be bundled again by the next
 * build, with the chunks of the one before.
 *
 * Left out, loaded from node_modules as before: native addons, what reads files beside its own code (the docs
 * page's assets), and what is loaded only when configured or used (Redis, NATS, pretty logs, the webhook client).
 */
export default defineConfig({
  // Each webhook thread's code is an entry of its own, sharing the chunks it needs with the command line.
  input: {
    main: 'dist/cli/program.js',
    'delivery-thread-bundle': 'dist/cli/delivery-thread-main.js',
    'sender-thread-bundle': 'dist/cli/sender-thread-main.js',
  },
  platform: 'node',
  external: [
    /^node:/,
    'better-sqlite3',
    'pg-native',
    'ioredis',
    'pino',
    'pino-pretty',
    /^@fastify\/(static|swagger|swagger-ui)$/,
    /^@nats-io\//,
    'undici',
  ],
  output: {
    dir: 'dist/cli',
    format: 'esm',
    entryFileNames: '[name].js',
    // What a command loads only when it runs (the server, the store) stays a file of its own. Named without a hash
    // so each build overwrites the last one's, beside tsc's output (whose names have no `main-`).
    chunkFileNames: 'main-[name].js',
    sourcemap: false,
  },
});
