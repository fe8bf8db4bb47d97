import { localeCodes } from '@keel/contracts';
import IntlMessageFormat from 'intl-messageformat';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageFormatter } from './engine.ts';
import { argumentKinds } from './icu-arguments.mjs';
import { readCatalogue } from './index.ts';
import type { MessageKey, MessageValues } from './messages.ts';
import { languageChunkOf } from './chunks.ts';
import { cataloguePartOf } from './messages.ts';
import { compileMessage, precompiledCatalogues } from './precompile.ts';

type Parse = typeof IntlMessageFormat.__parse;
const realParse: Parse = IntlMessageFormat.__parse;

/** Formats with the ICU parser taken away, as in the apps' bundles (aliased to its no-parse twin). */
function withoutParser<T>(run: () => T): T {
  IntlMessageFormat.__parse = undefined;
  try {
    return run();
  } finally {
    IntlMessageFormat.__parse = realParse;
  }
}

afterEach(() => {
  IntlMessageFormat.__parse = realParse;
});

/** Counts that reach every CLDR category of the 13 languages, a fraction included. */
const sampleCounts = [0, 1, 2, 3, 5, 11, 21, 1.5];

/** Sample values for each argument: a count for numbers and plurals, a marked name for text. */
function sampleValues(kinds: ReturnType<typeof argumentKinds>, count: number): MessageValues {
  return Object.fromEntries(
    Object.entries(kinds).map(([name, kind]) => {
      if (kind === 'number' || kind === 'plural') return [name, count];
      if (kind === 'date' || kind === 'time') return [name, new Date(0)];
      if (kind === 'select') return [name, 'other'];
      return [name, `‹${name}›`];
    }),
  ) as MessageValues;
}

describe('compileMessage', () => {
  it('keeps a plain text a string', () => {
    expect(compileMessage('Log in', 'en')).toBe('Log in');
  });

  it('parses a message with arguments or plurals', () => {
    expect(compileMessage('Price {price}', 'en')).toEqual([
      { type: 0, value: 'Price ' },
      { type: 1, value: 'price' },
    ]);
    expect(Array.isArray(compileMessage('{count, plural, one {# order} other {# orders}}', 'en'))).toBe(true);
  });

  it('keeps the parsed form of a quoted text whose literal still looks like ICU', () => {
    // '{' is a quoted brace: the text shown is "{", which the engine must not take for an argument.
    expect(compileMessage("Use '{'name'}'", 'en')).toEqual([{ type: 0, value: 'Use {name}' }]);
    expect(compileMessage("It''s done", 'en')).toEqual([{ type: 0, value: "It's done" }]);
  });

  it('fails on a broken message, so a broken catalogue fails the build', () => {
    expect(() => compileMessage('{count, plural, one {# order}', 'en')).toThrow();
  });
});

describe('precompiled catalogues', () => {
  const plugin = precompiledCatalogues();
  const transform = plugin.transform as (code: string, id: string) => { code: string } | null;

  it('transforms catalogue files only', () => {
    expect(transform('{"a":"b"}', '/repo/apps/web/src/data.json')).toBeNull();
    const out = transform('{"web.a":"{n, plural, one {# day} other {# days}}","web.b":"Plain"}', '/repo/packages/locales/catalogues/web/ru.json');
    const compiled = JSON.parse(out?.code ?? 'null') as Record<string, unknown>;
    expect(compiled['web.b']).toBe('Plain');
    expect(Array.isArray(compiled['web.a'])).toBe(true);
  });

  it("cuts the user app's texts into what a visitor needs, what the tabs show and the rest behind the login", () => {
    const file = JSON.stringify({ 'web.auth.title': 'Log in', 'web.tab.home': 'Home', 'web.records.title': 'Records', 'web.p2p.title': 'P2P', 'error.UNKNOWN': 'Error' });
    const part = (name: string) =>
      transform(file, `/repo/packages/locales/catalogues/web/en.json?part=${name}`)?.code.replace(/^export default /, '').replace(/;$/, '');
    expect(JSON.parse(part('start') ?? '')).toEqual({ 'web.auth.title': 'Log in', 'error.UNKNOWN': 'Error' });
    expect(JSON.parse(part('tabs') ?? '')).toEqual({ 'web.tab.home': 'Home', 'web.records.title': 'Records' });
    expect(JSON.parse(part('more') ?? '')).toEqual({ 'web.p2p.title': 'P2P' });
    expect(cataloguePartOf('web.validation.required')).toBe('start');
    expect(cataloguePartOf('web.assets.title')).toBe('tabs');
    expect(cataloguePartOf('web.withdraw.logTitle')).toBe('tabs');
    expect(cataloguePartOf('web.withdraw.title')).toBe('more');
    expect(cataloguePartOf('admin.users.title')).toBe('start');
  });

  it('names the chunks of a language: one for the start, one for the texts behind the login', () => {
    const chunkOf = languageChunkOf(['web', 'error']);
    expect(chunkOf('/r/packages/locales/catalogues/web/fr-pro.json?part=start')).toBe('messages-fr-pro');
    expect(chunkOf('/r/packages/locales/catalogues/error/fr-pro.json')).toBe('messages-fr-pro');
    expect(chunkOf('/r/packages/locales/catalogues/web/fr-pro.json?part=more')).toBe('messages-fr-pro-more');
    expect(chunkOf('/r/packages/locales/catalogues/web/fr-pro.json?part=tabs')).toBe('messages-fr-pro-tabs');
    expect(chunkOf('/r/packages/locales/catalogues/admin/fr.json')).toBeNull();
  });

  // The apps ship what the plugin makes; each message must read the same as the text it was
  // parsed from, in every language, with the parser gone.
  for (const area of ['web', 'admin', 'error'] as const) {
    it(`formats every ${area} message the same compiled (without a parser) as from its text, in all 13 languages`, () => {
      let checked = 0;
      for (const locale of localeCodes) {
        const texts = readCatalogue(area, locale);
        const compiled = JSON.parse(transform(JSON.stringify(texts), `/r/packages/locales/catalogues/${area}/${locale}.json`)?.code ?? '{}');
        const fromText = createMessageFormatter({ resources: { [locale]: { translation: texts } }, lng: locale });
        const fromCompiled = createMessageFormatter({ resources: { [locale]: { translation: compiled } }, lng: locale });
        for (const [key, text] of Object.entries(texts)) {
          const kinds = argumentKinds(text);
          const counts = Object.values(kinds).some((kind) => kind === 'number' || kind === 'plural') ? sampleCounts : [7];
          for (const count of counts) {
            const values = sampleValues(kinds, count);
            const expected = fromText.t(key as MessageKey, values);
            expect(withoutParser(() => fromCompiled.t(key as MessageKey, values)), `${area}/${locale} ${key}`).toBe(expected);
            checked += 1;
          }
        }
      }
      expect(checked).toBeGreaterThan(500);
    }, 30_000);
  }

  it('would show the raw text if a message reached the browser unparsed (so the test above can fail)', () => {
    const formatter = createMessageFormatter({ resources: { en: { translation: { k: 'Hi {name}' } } }, lng: 'en' });
    expect(withoutParser(() => formatter.t('k' as MessageKey, { name: 'Ann' }))).toBe('Hi {name}');
  });
});
