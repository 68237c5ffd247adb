import { describe, expect, test } from 'vitest';
import { nameHolds } from './name-search.js';

describe('a search by name', () => {
  test('when the text is part of the name in another case, then it matches', () => {
    expect(nameHolds('Acme Fitness', 'fit')).toBe(true);
    expect(nameHolds('Acme Fitness', 'ACME F')).toBe(true);
  });

  test('when the name has accented capitals, then their small letters find it', () => {
    expect(nameHolds('Academia AÇÃO', 'ação')).toBe(true);
  });

  test('when the text is typed decomposed, then it finds the precomposed name', () => {
    expect(nameHolds('Ação Sul', 'ac\u0327a\u0303o')).toBe(true);
  });

  test('when the text is not in the name, then it does not match', () => {
    expect(nameHolds('Acme Fitness', 'yoga')).toBe(false);
    expect(nameHolds('Acao', 'ação')).toBe(false);
  });
});
