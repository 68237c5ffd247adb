/** Values that are not a JSON string of 13 ASCII digits. */
export const BAD_IDS: [string, unknown][] = [
  ['12 digits', '123456789012'],
  ['14 digits', '12345678901234'],
  ['a JSON number', 1234567890123],
  ['an array', ['1234567890123']],
  ['null', null],
  ['letters', '12345678901ab'],
  ['Arabic-Indic digits', '١٢٣٤٥٦٧٨٩٠١٢٣'],
  ['full-width digits', '１２３４５６７８９０１２３'],
  ['a trailing newline', '1234567890123\n'],
  ['surrounding spaces', ' 1234567890123 '],
  ['an empty string', ''],
];

/** custom_code values that are refused, with the message the API documents for each. */
export const BAD_CODES: [string, unknown, string][] = [
  ['14 characters', 'ABCDEFGHIJKLMN', 'length must be between 1 and 13 characters'],
  ['14 emoji', '😀'.repeat(14), 'length must be between 1 and 13 characters'],
  ['empty', '', 'length must be between 1 and 13 characters'],
  ['blank', '   ', 'must not be blank'],
  ['only zero-width spaces', '\u200b\u200b', 'must not be blank'],
  ['a Hangul filler', '\u3164', 'must not be blank'],
  ['braille blanks', '\u2800\u2800\u2800', 'must not be blank'],
  ['a soft hyphen, a word joiner and an ideographic space', '\u00ad\u2060\u3000', 'must not be blank'],
  ['a NUL inside', 'AB\u0000CD', 'must not contain control characters'],
  ['a tab inside', 'AB\tCD', 'must not contain control characters'],
  ['DEL', 'AB\u007fCD', 'must not contain control characters'],
  ['a C1 control', 'AB\u0085CD', 'must not contain control characters'],
  ['a lone surrogate', 'A\ud800B', 'must be well-formed Unicode text'],
  ['a lone low surrogate', '\udc00', 'must be well-formed Unicode text'],
  ['a number', 1234, 'must be a string'],
  ['an object', { code: '1' }, 'must be a string'],
  ['an array', ['1'], 'must be a string'],
  ['a boolean', true, 'must be a string'],
];

/** Path segments for :platform_id that are not 13 ASCII digits, as sent on the wire (percent-encoded). */
export const BAD_PATH_IDS: [string, string][] = [
  ['12 digits', '123456789012'],
  ['14 digits', '12345678901234'],
  ['letters', 'abcdefghijklm'],
  ['Arabic-Indic digits', encodeURIComponent('١٢٣٤٥٦٧٨٩٠١٢٣')],
  ['an encoded slash', '123%2F4567890123'],
  ['an encoded space', '%201234567890123'],
];
