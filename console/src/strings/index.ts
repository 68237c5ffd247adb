import { en, type Strings } from './en.js';
import { chooseLanguage, type Language } from './language.js';
import { ptBR } from './pt-br.js';

export type { Strings } from './en.js';

/** Every language's catalogue: adding a language is one file typed `Strings`, and a line here and in LANGUAGES. */
const CATALOGUES: Readonly<Record<Language, Strings>> = { en, 'pt-BR': ptBR };

/** The language the console speaks in this browser, chosen once from its preferred languages. */
export const language: Language = chooseLanguage(navigator.languages);

/** What the console says, in `language`. */
export const t: Strings = CATALOGUES[language];
