import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const commandLines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
  (block[1] ?? '').split('\n').filter((line) => line.trim() !== ''),
);
const SUBCOMMANDS =
  'serve|migrate|demo|partner|gym|product|key|checkin|transactions|transaction|payouts|settlement|webhook|operator|member|purge|backup|restore|--help|--version';

describe("the README's commands", () => {
  test('when the README shows shell commands, then there are some, and none runs a package through npx or npm exec', () => {
    expect(commandLines.length).toBeGreaterThan(10);

    expect(commandLines.filter((line) => /\bnpx\b|\bnpm (exec|x)\b/.test(line))).toEqual([]);
  });

  test("when a README command runs gatehouse, then it is the checkout's ./gatehouse, which no registry can stand in for", () => {
    const bare = new RegExp(`(?<!\\./)\\bgatehouse (${SUBCOMMANDS})\\b`);

    expect(commandLines.filter((line) => bare.test(line))).toEqual([]);
    expect(commandLines.filter((line) => line.includes('./gatehouse ')).length).toBeGreaterThan(5);
  });
});
