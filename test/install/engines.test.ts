import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

interface LockEntry {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
}

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** The oldest Node the project promises to run on (`engines.node` of package.json, e.g. 20.19.0). */
const oldestNode = semver.minVersion(manifest.engines.node);

describe('a clean `npm install` on the oldest supported Node', () => {
  test('when the lockfile is installed, then every package in it supports the oldest Node package.json names (no EBADENGINE warning)', () => {
    expect(oldestNode?.version).toBe('20.19.0');

    const unsupported = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        // Old packages list engines as an array of strings, which npm ignores.
        const range = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string })?.node;
        if (range === undefined || oldestNode === null) return [];
        return semver.satisfies(oldestNode, range, { includePrerelease: true })
          ? []
          : [`${path.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} wants node ${range}`];
      });

    expect(unsupported).toEqual([]);
  });
});
