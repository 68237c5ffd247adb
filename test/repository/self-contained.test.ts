import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const THIS_FILE = relative(ROOT, fileURLToPath(import.meta.url));

/** Where the project explains itself: code, SDK, tests, docs and the top-level guides. */
const TREES = ['src', 'sdk/src', 'test', 'docs'];
const FILES = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'sdk/README.md'];
const TEXT_FILE = /\.(ts|js|mjs|cjs|json|md|sh|sql|html|css)$/;

/**
 * Ways of pointing a reader at a document that is not in the repository: a design file by name, a numbered
 * section (`§`), a row of a planning table, an invariant by its label in such a table. The project says what it
 * decided in its own words (docs/contract.md, the README, a comment where the decision is made) instead.
 */
const CITATIONS: readonly (readonly [name: string, pattern: RegExp])[] = [
  [
    'a design document by name',
    /\b(?:product|fault-matrix|events|money|console|operators|conventions|access-control-service)\.md\b/i,
  ],
  ['a numbered section', /§/],
  ['the planning table of failures', /\bfault[ -]matrix\b(?!\/)/i],
  ['a row of a planning table', /\brows? \d+[a-z]?(?:[–-]\d+)?(?:\/\d+)?(?:(?:, | and )\d+)*(?::|\))/i],
  ['an invariant by its label', /\bI[1-9]\b(?::|,? I[1-9]\b| holds?\b)/],
  ['a specification by section', /\bspec(?:ification)?'?s? (?:section|chapter|table) \d/i],
];

/** A path in backquotes that starts at the root of the repository: `src/…`, `test/…`, `eslint.layers.js`. */
const FILE_NAMED = /`((?:src|test|sdk|bench|docs)\/[\w./-]+\.(?:ts|js|md|json)|[\w.-]+\.(?:js|md))`/g;

function filesUnder(directory: string): string[] {
  return readdirSync(join(ROOT, directory)).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(join(ROOT, path)).isDirectory()) return filesUnder(path);
    return TEXT_FILE.test(name) ? [path] : [];
  });
}

function citationsIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      CITATIONS.filter(([, pattern]) => pattern.test(line)).map(
        ([name]) => `line ${index + 1}, ${name}: ${line.trim().slice(0, 160)}`,
      ),
    );
}

describe('the repository explains itself', () => {
  test('when every source, test and doc file is read, then none cites a document outside the repository', () => {
    const files = [...TREES.flatMap(filesUnder), ...FILES].filter((path) => path !== THIS_FILE);
    expect(files.length).toBeGreaterThan(200);

    const found = files.flatMap((path) =>
      citationsIn(readFileSync(join(ROOT, path), 'utf8')).map((where) => `${path}: ${where}`),
    );

    expect(found).toEqual([]);
  });

  test('when the guides and docs name a file of the repository, then it exists', () => {
    const guides = [...filesUnder('docs'), ...FILES].filter((path) => path.endsWith('.md'));
    const named = guides.flatMap((guide) =>
      [...readFileSync(join(ROOT, guide), 'utf8').matchAll(FILE_NAMED)].map((match) => [
        guide,
        match[1] ?? '',
      ]),
    );
    expect(named.length).toBeGreaterThan(80);

    expect(named.filter(([, path]) => !existsSync(join(ROOT, path ?? '')))).toEqual([]);
  });

  test.each([
    ['/** Order of checks (product.md §2.5). */', 2],
    ["describe('fault matrix rows 14–19, transport-level input (%s)')", 1],
    ["test('row 28: when a key is over its limit, then 429')", 1],
    ["expect(rows, 'I2: the 200 is persisted')", 1],
    ['// the expired case, spec section 4 says so', 1],
    ['see docs/fault-matrix.md', 2],
    ['| `test/fault-matrix/auth.test.ts` (rows 1–7), |', 1],
  ])('when a line cites an outside document (%j), then it is found', (line, count) => {
    expect(citationsIn(line)).toHaveLength(count);
  });

  test.each([
    "const folder = 'test/fault-matrix/';",
    '/** The order of checks: docs/contract.md. */',
    "test('when the 21st row is read, then it is the last')",
    'const I1 = 1;',
    '// RFC 9112, section 3.2',
  ])('when a line only names the repository’s own things (%j), then it is not a citation', (line) => {
    expect(citationsIn(line)).toEqual([]);
  });
});
