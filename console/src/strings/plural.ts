/** The word a count takes in a language ("1 visit", "2 visits"), by the language's own plural rules. */
export function pluralIn(language: string) {
  const rules = new Intl.PluralRules(language);
  return (count: number, one: string, other: string): string => (rules.select(count) === 'one' ? one : other);
}
