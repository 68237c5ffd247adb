/**
 * Whether `name` holds `text`, whatever the case, in any script (`ação` finds `Academia AÇÃO`): what a search box
 * by name matches. Both are compared in one Unicode form, so a letter typed precomposed finds it decomposed.
 */
export function nameHolds(name: string, text: string): boolean {
  return fold(name).includes(fold(text));
}

const fold = (text: string) => text.normalize('NFC').toLowerCase();
