import { writeFileSync } from 'node:fs';
import { gitCommit } from './version-line.js';

/**
 * Run by `npm run build` after the compiler: records the commit beside the compiled CLI, so `--version` names it
 * wherever the build is copied to. Without git (a tarball), nothing is written and `--version` asks git at run
 * time, or says unknown.
 */
const commit = gitCommit();
if (commit !== undefined) {
  writeFileSync(new URL('../build-info.json', import.meta.url), `${JSON.stringify({ commit })}\n`);
}
