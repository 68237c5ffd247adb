import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import config from '../../rolldown.config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the command line bundle', () => {
  test('when rolldown bundles tsc output, then no entry is written over a file tsc emits, and serve starts each thread from its bundle', () => {
    const { input, output } = config as { input: Record<string, string>; output: { entryFileNames: string } };
    expect(output.entryFileNames).toBe('[name].js');
    // tsc's build is incremental: a bundle written over an unchanged module's output would be bundled again next
    // time, with the chunks of the build before (a changed sender would not reach the sending thread).
    const written = Object.keys(input).map((name) => `dist/cli/${name}.js`);
    expect(written.filter((file) => Object.values(input).includes(file))).toEqual([]);
    expect(input).toEqual({
      main: 'dist/cli/program.js',
      'delivery-thread-bundle': 'dist/cli/delivery-thread-main.js',
      'sender-thread-bundle': 'dist/cli/sender-thread-main.js',
    });
    for (const [starter, bundle] of [
      ['delivery-thread.ts', 'delivery-thread-bundle.js'],
      ['sender-thread.ts', 'sender-thread-bundle.js'],
    ] as const) {
      const source = readFileSync(`${ROOT}src/cli/${starter}`, 'utf8');
      expect(source).toContain(`new Worker(new URL('./${bundle}', import.meta.url)`);
    }
  });
});
