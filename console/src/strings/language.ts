/** The languages the console speaks; English is the source of every other. */
export const LANGUAGES = ['en', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The first of the browser's languages (most preferred first) the console speaks: any Portuguese (pt, pt-BR, pt-PT)
 * is Brazilian Portuguese, any English is English; English when none is spoken.
 */
export function chooseLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'pt') return 'pt-BR';
    if (base === 'en') return 'en';
  }
  return 'en';
}
