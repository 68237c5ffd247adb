import { describe, expect, test } from 'vitest';
import { useApp } from '../fixtures/test-app.js';
import { readmeSection } from '../processes/readme/readme-section.js';

/** `GET /gyms/:gym_id/products?…` → `GET /gyms/:/products`: parameter names and query strings aside. */
const shape = (route: string) => route.replace(/\?.*$/, '').replace(/:[a-z_]+/g, ':');

/** The routes the README's operator API table names, each as `METHOD /path` under /admin/v1. */
function tabled(): string[] {
  const section = readmeSection('### The operator API');
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  const cells = rows.map((row) => row.split('|')[1] ?? '');
  return cells.flatMap((cell) =>
    [...cell.matchAll(/`(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/g)].map(
      (match) => `${match[1]} /admin/v1${shape(match[2] ?? '')}`,
    ),
  );
}

describe("the README's operator API table", () => {
  const app = useApp({});

  test('when the app registers its operator routes, then the table lists each of them once, and nothing else', () => {
    const registered = app()
      .operatorRoutes.filter((route) => route.method !== 'HEAD')
      .map((route) => shape(`${route.method} ${route.url}`));

    const listed = tabled();

    expect([...listed].sort()).toEqual([...registered].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });
});
