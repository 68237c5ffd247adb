import fc from 'fast-check';
import type { HTTPMethods } from 'fastify';

/** What an HTTP client can put in a header value: visible ASCII, space, tab and obs-text (Node refuses the rest). */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
  .map((code) => String.fromCharCode(code));
export const headerValue = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 2000 }),
);

/** Emoji, control characters and the characters SQL LIKE and string literals care about. */
const trickyUnit = fc.constantFrom(
  '😀',
  '👍🏽',
  '🇧🇷',
  '\u0000',
  '\t',
  '\n',
  '\u007f',
  '\u0085',
  '\u00a0',
  ' ',
  'é',
  '%',
  '_',
  "'",
  '"',
  '\\',
  '١',
);

/** Any string at all: every code point, printable graphemes, and the tricky units above. */
export const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.string({ unit: 'grapheme', maxLength: 16 }),
  fc.string({ unit: trickyUnit, maxLength: 16 }),
);

/** A platform_id from the known members (so requests reach real check-ins), a well-formed one, or anything. */
export function platformIdArb(members: readonly string[]) {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...members), weight: 3 },
    fc.stringMatching(/^[0-9]{13}$/),
    anyString,
    fc.constantFrom('١٢٣٤٥٦٧٨٩٠١٢٣', '..', '%2F', ' 1234567890123', '1234567890123\n', '9'.repeat(200)),
  );
}

/** custom_code values: valid ones (any Unicode, emoji included), and every way of being wrong. */
export const customCodeArb = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 14 }),
  fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 13 }),
  fc.string({ unit: trickyUnit, maxLength: 15 }),
  fc.constantFrom('', '   ', '😀'.repeat(13), '😀'.repeat(14), "'; DROP TABLE custom_codes; --"),
);

/** A JSON object shaped like a partner body: the documented fields, any values, extra fields, prototype keys. */
export function partnerBodyArb(members: readonly string[]) {
  const idValue = fc.oneof(platformIdArb(members), fc.jsonValue());
  return fc
    .tuple(
      fc.record(
        {
          platform_id: idValue,
          gympass_id: idValue,
          custom_code: fc.oneof({ arbitrary: customCodeArb, weight: 3 }, fc.jsonValue()),
          status: fc.constant('validated'),
          gym_id: fc.integer(),
          partner_id: fc.integer(),
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(anyString, fc.jsonValue(), { maxKeys: 3 }),
    )
    .map(([fields, extra]) => JSON.stringify({ ...extra, ...fields }));
}

/** Raw bodies: partner-shaped JSON, any JSON, any text, and the classic attacks. */
export function rawBodyArb(members: readonly string[]) {
  return fc.oneof(
    { arbitrary: partnerBodyArb(members), weight: 4 },
    fc.jsonValue().map((value) => JSON.stringify(value)),
    anyString,
    fc.constantFrom(
      '',
      'null',
      '[]',
      '{"platform_id":',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      `{"platform_id":"${'9'.repeat(70_000)}"}`,
    ),
  );
}

export const contentTypeArb = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=UTF-8',
    'APPLICATION/JSON;charset=utf-8',
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ),
  headerValue,
);

export const methodArb = fc.constantFrom<HTTPMethods>(
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'HEAD',
);

const queryArb = fc
  .dictionary(fc.constantFrom('from', 'to', 'limit', 'cursor', 'x'), anyString, { maxKeys: 3 })
  .map((query) => `/access/v1/transactions?${new URLSearchParams(query).toString()}`);

/** Paths under /access/v1: the routes, with any platform id (encoded or raw), any query, any segment. */
export function pathArb(members: readonly string[]) {
  const member = platformIdArb(members);
  return fc.oneof(
    { arbitrary: fc.constant('/access/v1/validate'), weight: 3 },
    { arbitrary: member.map((id) => `/access/v1/code/${encodeURIComponent(id)}`), weight: 3 },
    member.map((id) => `/access/v1/code/${id}`),
    queryArb,
    anyString.map((segment) => `/access/v1/${segment}`),
    fc.webSegment().map((segment) => `/access/v1/${segment}`),
  );
}

/** Method and path: most often a route with its own method (so handlers are reached), otherwise anything. */
export function targetArb(members: readonly string[]) {
  const member = platformIdArb(members);
  const routed = fc.oneof(
    fc.constant({ method: 'POST', url: '/access/v1/validate' }),
    fc
      .tuple(fc.constantFrom<HTTPMethods>('POST', 'PUT', 'DELETE', 'GET'), member)
      .map(([method, id]) => ({ method, url: `/access/v1/code/${encodeURIComponent(id)}` })),
    queryArb.map((url) => ({ method: 'GET', url })),
  );
  return fc.oneof({ arbitrary: routed, weight: 3 }, fc.record({ method: methodArb, url: pathArb(members) }));
}
