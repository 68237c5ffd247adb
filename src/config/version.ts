import { readFileSync } from 'node:fs';

/**
 * The package's version: the one `gatehouse --version`, `/health` and the OpenAPI document show. Two folders down
 * from the checkout, as in the bundled command line (dist/cli/main.js) and in the modules it is built from.
 */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
