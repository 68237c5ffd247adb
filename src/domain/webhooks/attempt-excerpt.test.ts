import { describe, expect, test } from 'vitest';
import { safeExcerpt } from './attempt-excerpt.js';

describe('safeExcerpt', () => {
  test('when the answer holds control characters, then each is written out and tabs and line feeds stay', () => {
    const answer = 'ok\tdone\n\u001b[2J\r\u0000\u007f\u0085\u202eevil';
    expect(safeExcerpt(answer)).toBe('ok\tdone\n\\u001b[2J\\u000d\\u0000\\u007f\\u0085\\u202eevil');
  });

  test('when the answer is plain text, then it is kept as it is', () => {
    expect(safeExcerpt('{"ok":true} ação')).toBe('{"ok":true} ação');
  });
});
