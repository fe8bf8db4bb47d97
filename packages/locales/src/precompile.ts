import IntlMessageFormat from 'intl-messageformat';
import type { Plugin } from 'vite';
import { icuSyntax, intlLocale } from './engine.ts';
import { cataloguePartOf } from './messages.ts';

/** A message as the apps' build ships it: its text when it is plain text, else its parsed ICU form. */
export type CompiledMessage = string | ReturnType<IntlMessageFormat['getAst']>;

/**
 * Parses one message at build time, as i18next-icu would at run time (tags are text; the locale
 * only matters for date skeletons). Throws on a broken message, so a broken catalogue fails the
 * build, not the page.
 */
export function compileMessage(text: string, locale: string): CompiledMessage {
  // Plain text stays a string: the engine hands it out as it is (`engine.ts`).
  if (!icuSyntax.test(text)) return text;
  const ast = new IntlMessageFormat(text, intlLocale(locale), undefined, { ignoreTag: true }).getAst();
  // Quoted text that parses to one literal is plain text again, unless the literal itself holds
  // one of those characters (the engine would then take it for ICU): that keeps its parsed form.
  const [only] = ast;
  if (ast.length === 1 && only?.type === 0 && !icuSyntax.test(only.value)) return only.value;
  return ast;
}

// A catalogue file, or one part of it (`?part=start`, `?part=tabs`, `?part=more`: load/web.ts).
const catalogueFile = /[\\/]packages[\\/]locales[\\/]catalogues[\\/][\w-]+[\\/]([\w-]+)\.json(?:\?part=(start|tabs|more))?$/;

/**
 * A Vite plugin for the apps: every catalogue file is parsed when it is bundled, so the browser
 * receives parsed ICU messages and the ICU parser (@formatjs/icu-messageformat-parser, about 8 KB
 * gzip) is left out of the first script; intl-messageformat only formats. It also cuts the user
 * app's texts into the parts `load/web.ts` asks for (ADR 0025).
 */
export function precompiledCatalogues({ forTests = false }: { forTests?: boolean } = {}): Plugin {
  return {
    name: 'keel:precompiled-catalogues',
    enforce: 'pre',
    // In the unit tests (vitest.config.ts) only the parts are made (a part is not JSON to the
    // bundler): the server code there parses strings, and whole files stay as they are.
    config: () =>
      forTests
        ? {}
        : {
            resolve: {
              // intl-messageformat imports the parser for strings; every message the apps format is
              // already parsed, so the parser's no-parse twin (which throws if called) takes its place.
              alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
            },
          },
    transform(code, id) {
      const [, locale, part] = catalogueFile.exec(id) ?? [];
      if (!locale || (forTests && !part)) return null;
      const catalogue = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(catalogue)
          .filter(([key]) => !part || cataloguePartOf(key) === part)
          .map(([key, text]) => [key, compileMessage(text, locale)]),
      );
      // A whole file stays JSON for Vite's JSON plugin; a part (a query on the name) is not taken
      // for JSON by the bundler, so it becomes a module here.
      if (!part) return { code: JSON.stringify(compiled), map: null };
      return { code: `export default ${JSON.stringify(compiled)};`, map: null, moduleType: 'js' };
    },
  };
}
