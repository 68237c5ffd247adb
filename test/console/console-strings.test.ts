import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { chooseLanguage } from '../../console/src/strings/language.js';

/*
 * Everything the console says lives in its catalogues (console/src/strings/): a component shows a catalogue's words,
 * never its own. This guard reads every component with TypeScript's parser and lists the words written in it: JSX
 * text, a user-facing attribute given a literal (aria-label, title, placeholder, a form's title or button label, a
 * confirmation's question …), and a literal shown as a child (`{n === 1 ? 'visit' : 'visits'}`). Literals the
 * console only compares or passes to a function (`may(session, 'catalog')`, `kind === 'visit'`) are not words shown.
 */
const SOURCES = join(process.cwd(), 'console', 'src');

/** Attributes whose value a person reads or hears, on elements and on the console's own components. */
const SHOWN = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'alt',
  'placeholder',
  'title',
  'label',
  'submitLabel',
  'question',
  'what',
  'why',
]);
/** ConfirmAction's `name` is its button's accessible name; an input's `name` is a field's. */
const SHOWN_ON: Readonly<Record<string, readonly string[]>> = { ConfirmAction: ['name'] };

const LETTER = /\p{L}/u;

interface Literal {
  readonly line: number;
  readonly text: string;
}

/** The words written in a component's source, where a catalogue's should be. */
function literalWords(fileName: string, source: string): Literal[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Literal[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: text.trim() });

  /** Literals an expression shows: not those it compares, indexes with or hands to a function. */
  function shownIn(node: ts.Node): void {
    if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node))
      return visit(node);
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      // A function's own body may show words (`map((x) => `gym ${x}`)`); its literal arguments are data.
      for (const argument of node.arguments ?? []) {
        if (ts.isArrowFunction(argument) || ts.isFunctionExpression(argument)) shownIn(argument);
        else if (!ts.isStringLiteralLike(argument) && !ts.isTemplateExpression(argument)) shownIn(argument);
      }
      return shownIn(node.expression);
    }
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) return;
    if (ts.isElementAccessExpression(node)) return shownIn(node.expression);
    if (ts.isStringLiteralLike(node)) {
      if (LETTER.test(node.text)) report(node, node.text);
      return;
    }
    if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      if (parts.some((part) => LETTER.test(part))) report(node, node.getText(file));
      node.templateSpans.forEach((span) => shownIn(span.expression));
      return;
    }
    ts.forEachChild(node, shownIn);
  }

  function visit(node: ts.Node): void {
    if (ts.isJsxText(node)) {
      if (LETTER.test(node.text)) report(node, node.text);
      return;
    }
    if (ts.isJsxExpression(node) && node.expression !== undefined && !ts.isJsxAttribute(node.parent)) {
      return shownIn(node.expression);
    }
    if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(file);
      const tag = node.parent.parent.tagName.getText(file);
      const init = node.initializer;
      if (!SHOWN.has(name) && !(SHOWN_ON[tag] ?? []).includes(name)) {
        if (init !== undefined) ts.forEachChild(init, visit);
        return;
      }
      if (init !== undefined && ts.isStringLiteral(init)) {
        if (LETTER.test(init.text)) report(init, init.text);
      } else if (init !== undefined && ts.isJsxExpression(init) && init.expression !== undefined) {
        shownIn(init.expression);
      }
      return;
    }
    ts.forEachChild(node, visit);
  }
  visit(file);
  return found;
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Every component of the console, its catalogues left out (they are where the words belong). */
const components = () =>
  readdirSync(SOURCES, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.tsx') && !path.startsWith('strings'))
    .sort();

describe("the console's words", () => {
  it('when a component writes words of its own, then the guard names each one, and passes what it only compares or hands on', () => {
    const planted = [
      'export const Planted = ({ count, session }: Props) => (',
      '  <section aria-label="Planted region" class="planted">',
      '    <h2>Planted heading</h2>',
      '    <input name="member" placeholder={`Type ${count} here`} title="13 digits" />',
      '    <ActionForm submitLabel="Save" title={t.network.newGym} />',
      '    <ConfirmAction label={t.keys.revoke} name={`Revoke ${count}`} question={t.keys.why} />',
      "    <p>{count === 1 ? 'visit' : 'visits'}</p>",
      "    <p>{t.common.all} · {formatCount(count)} {may(session, 'catalog') && t.common.copy}</p>",
      "    <ul>{items.map((item) => <li key={item}>{item.kind === 'visit' ? t.common.all : `gym ${item}`}</li>)}</ul>",
      '  </section>',
      ');',
    ].join('\n');

    expect(literalWords('planted.tsx', planted)).toEqual([
      { line: 2, text: 'Planted region' },
      { line: 3, text: 'Planted heading' },
      { line: 4, text: '`Type ${count} here`' },
      { line: 4, text: '13 digits' },
      { line: 5, text: 'Save' },
      { line: 6, text: '`Revoke ${count}`' },
      { line: 7, text: 'visit' },
      { line: 7, text: 'visits' },
      { line: 9, text: '`gym ${item}`' },
    ]);
  });

  it('when every component is read, then none writes words of its own: they are all in the catalogues', () => {
    const files = components();
    expect(files.length).toBeGreaterThan(25);
    const words = Object.fromEntries(
      files
        .map((path) => [path, literalWords(path, readFileSync(join(SOURCES, path), 'utf8'))] as const)
        .filter(([, found]) => found.length > 0),
    );
    expect(words).toEqual({});
  });

  it('when the browser prefers a language, then the console speaks the first of them it knows, English otherwise', () => {
    expect(chooseLanguage(['pt-BR', 'en-US'])).toBe('pt-BR');
    expect(chooseLanguage(['pt'])).toBe('pt-BR');
    expect(chooseLanguage(['PT-pt'])).toBe('pt-BR');
    expect(chooseLanguage(['fr-FR', 'pt-BR', 'en'])).toBe('pt-BR');
    expect(chooseLanguage(['en-GB', 'pt-BR'])).toBe('en');
    expect(chooseLanguage(['de-DE', 'fr'])).toBe('en');
    expect(chooseLanguage([])).toBe('en');
  });
});
