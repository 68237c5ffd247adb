import { readFileSync } from 'node:fs';

const README = new URL('../../../README.md', import.meta.url);

/** The text of the README section whose heading starts with `heading`, up to the next heading of any level. */
export function readmeSection(heading: string): string {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(`\n${heading}`);
  if (start === -1) throw new Error(`README.md has no section "${heading}"`);
  const rest = text.slice(start + 1);
  const end = rest.slice(1).search(/\n#{1,6} /);
  return end === -1 ? rest : rest.slice(0, end + 1);
}

/** The fenced `sh` blocks of a piece of Markdown, in order, without their fences. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}
