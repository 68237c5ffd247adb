import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DEFAULT_DATABASE_URL, SETTINGS } from '../../src/config/index.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const envExample = readFileSync(new URL('.env.example', root), 'utf8');
const names = Object.keys(SETTINGS).sort();

/** What the docs must show as a setting's default: its value, or "unset" when the code has none. */
function documentedDefault(name: string): string | undefined {
  if (name === 'GATEHOUSE_DATABASE_URL') return DEFAULT_DATABASE_URL; // applied in loadConfig, not the schema
  const setting = SETTINGS[name as keyof typeof SETTINGS] as { default?: string | number | boolean };
  return setting.default === undefined ? undefined : String(setting.default);
}

describe('the configuration the docs describe is the one the code reads', () => {
  const section = readme.slice(readme.indexOf('\n## Configuration'), readme.indexOf('\n## Dependencies'));
  const rows = [...section.matchAll(/^\| `(GATEHOUSE_[A-Z0-9_]+)` +\| ([^|]*?) +\|/gm)].map((match) => ({
    name: match[1] ?? '',
    default: match[2] ?? '',
  }));

  test("when the README's configuration table is read, then it has one row per variable of the schema", () => {
    expect(rows.map((row) => row.name).sort()).toEqual(names);
  });

  test("when the README's table gives a default, then it is the code's (or says unset where the code has none)", () => {
    for (const row of rows) {
      const expected = documentedDefault(row.name);
      if (expected === undefined) expect(row.default, row.name).toMatch(/^unset\b/);
      else expect(row.default, row.name).toBe(`\`${expected}\``);
    }
  });

  test('when the README names a GATEHOUSE_ variable anywhere, then the code reads it', () => {
    const mentioned = new Set([...readme.matchAll(/GATEHOUSE_[A-Z0-9_]+/g)].map((match) => match[0]));
    const tests = new Set(['GATEHOUSE_TEST_PG_URL', 'GATEHOUSE_TEST_REQUIRE_SERVICES']);

    expect([...mentioned].filter((name) => !names.includes(name) && !tests.has(name))).toEqual([]);
  });

  test('when .env.example is read, then it lists every variable once, commented out, at its default', () => {
    const entries = [...envExample.matchAll(/^(#?)(GATEHOUSE_[A-Z0-9_]+)=(.*)$/gm)].map((match) => ({
      commented: match[1] === '#',
      name: match[2] ?? '',
      value: match[3] ?? '',
    }));

    expect(entries.map((entry) => entry.name).sort()).toEqual(names);
    expect(entries).toEqual(
      entries.map((entry) => ({ ...entry, commented: true, value: documentedDefault(entry.name) ?? '' })),
    );
  });
});
