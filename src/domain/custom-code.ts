/** A custom code: 1 to 13 Unicode code points, not blank, no C0/DEL/C1 control characters (README). */
export const CUSTOM_CODE_MIN_LENGTH = 1;
export const CUSTOM_CODE_MAX_LENGTH = 13;
/**
 * Not blank: at least one character that shows. White_Space, Default_Ignorable_Code_Point (zero-width spaces and
 * joiners, U+3164 HANGUL FILLER, soft hyphen …) and U+2800 BRAILLE PATTERN BLANK all print as nothing, so a code
 * of only those would look empty at the front desk. Matched in Unicode mode.
 */
export const CUSTOM_CODE_NOT_BLANK_PATTERN = '[^\\p{White_Space}\\p{Default_Ignorable_Code_Point}\\u2800]';
export const CUSTOM_CODE_NO_CONTROL_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
/** No lone UTF-16 surrogate (JSON can carry one; no database can store it verbatim). Matched in Unicode mode. */
export const CUSTOM_CODE_WELL_FORMED_PATTERN = '^[^\\uD800-\\uDFFF]*$';

export const CUSTOM_CODE_MESSAGES = {
  type: 'must be a string',
  length: 'length must be between 1 and 13 characters',
  blank: 'must not be blank',
  control: 'must not contain control characters',
  wellFormed: 'must be well-formed Unicode text',
} as const;
