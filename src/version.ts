import { readFileSync } from 'node:fs';

/** The package's version: the one `gatehouse --version`, `/health` and the OpenAPI document show. */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
