import { SETTINGS } from './settings.js';

/** The test suite's and the benchmarks' own variables (CONTRIBUTING.md): never read by gatehouse itself. */
const RESERVED = ['GATEHOUSE_TEST_', 'GATEHOUSE_BENCH_'];

/** Edits (insert, delete, replace one letter) that turn a into b. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const replace = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, replace));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known setting a misspelt name most likely meant: a few letters away at most. */
function closest(name: string): string | undefined {
  const [best] = Object.keys(SETTINGS)
    .map((known) => [known, distance(name, known)] as const)
    .filter(([, edits]) => edits <= 3)
    .sort((a, b) => a[1] - b[1]);
  return best?.[0];
}

/**
 * One warning line naming every GATEHOUSE_* variable that is no setting, each with the setting it likely meant:
 * a misspelt GATEHOUSE_DATABSE_URL would otherwise serve the default database without a word. Undefined when all
 * are known.
 */
export function unknownSettingsWarning(env: NodeJS.ProcessEnv): string | undefined {
  const unknown = Object.keys(env)
    .filter((name) => name.startsWith('GATEHOUSE_') && !(name in SETTINGS))
    .filter((name) => !RESERVED.some((prefix) => name.startsWith(prefix)))
    .sort();
  if (unknown.length === 0) return undefined;
  const named = unknown.map((name) => {
    const meant = closest(name);
    return meant === undefined ? name : `${name} (did you mean ${meant}?)`;
  });
  return `warning: unknown setting${unknown.length > 1 ? 's' : ''} ignored: ${named.join(', ')}`;
}
