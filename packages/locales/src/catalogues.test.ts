import { readdirSync } from 'node:fs';
import { type LocaleCode, localeCodes } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { formatSample, messageArguments, parseMessage, pluralCategoriesOf, pluralsOf } from './icu-arguments.mjs';
import { catalogueFolders, messageAreas, readCatalogue } from './index.ts';

// The catalogue files themselves, as the build and the server read them: per area, one JSON
// object of flat keys per locale.
const read = (code: LocaleCode) =>
  Object.assign({}, ...messageAreas.map((area) => readCatalogue(area, code))) as Record<string, unknown>;
const en = read('en');
const enKeys = Object.keys(en);
/** The formal variants hold only what differs from the language they fall back to. */
const formalBase: Partial<Record<LocaleCode, LocaleCode>> = { 'fr-pro': 'fr', 'it-pro': 'it' };
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

describe('locale catalogues', () => {
  it('has one folder per area, each with exactly one file per locale', () => {
    expect(catalogueFolders().sort()).toEqual([...messageAreas].sort());
    for (const area of messageAreas) {
      const dir = new URL(`../catalogues/${area}/`, import.meta.url);
      const files = readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
      expect(files.sort(), area).toEqual([...localeCodes].sort());
    }
  });

  it('keeps each key in the area its first part names', () => {
    for (const area of messageAreas) {
      for (const code of localeCodes) {
        const misplaced = Object.keys(readCatalogue(area, code)).filter((key) => !key.startsWith(`${area}.`));
        expect(misplaced, `${area}/${code}.json`).toEqual([]);
      }
    }
  });

  it('has a non-empty English text for every key', () => {
    for (const key of enKeys) expect(isText(en[key]), key).toBe(true);
  });

  for (const code of localeCodes.filter((each) => each !== 'en')) {
    describe(code, () => {
      const catalogue = read(code);
      const base = formalBase[code];

      if (base) {
        const baseCatalogue = read(base);
        it(`holds only English keys, each with a text that differs from ${base}`, () => {
          expect(Object.keys(catalogue).filter((key) => !(key in en))).toEqual([]);
          expect(Object.keys(catalogue).filter((key) => !isText(catalogue[key]))).toEqual([]);
          expect(Object.keys(catalogue).filter((key) => catalogue[key] === baseCatalogue[key])).toEqual([]);
        });
      } else {
        it('has every English key, with a non-empty text', () => {
          expect(enKeys.filter((key) => !isText(catalogue[key]))).toEqual([]);
        });

        it('has no key that English lacks', () => {
          expect(Object.keys(catalogue).filter((key) => !(key in en))).toEqual([]);
        });
      }
    });
  }
});

describe('ICU messages', () => {
  for (const code of localeCodes) {
    describe(code, () => {
      const catalogue = read(code) as Record<string, string>;

      it('parses every message as ICU (apostrophes, braces)', () => {
        const broken = Object.entries(catalogue).flatMap(([key, text]) => {
          try {
            parseMessage(text);
            return [];
          } catch (error) {
            return [`${key}: ${(error as Error).message}`];
          }
        });
        expect(broken).toEqual([]);
      });

      it('formats every message to text: no argument left quoted or unfilled', () => {
        const wrong = Object.entries(catalogue).filter(([, text]) => /[{}]/.test(formatSample(text, code)));
        expect(wrong.map(([key]) => key)).toEqual([]);
      });

      it('takes the same arguments as English in every message', () => {
        const wrong = Object.keys(catalogue).filter(
          (key) => isText(en[key]) && messageArguments(catalogue[key] as string).join() !== messageArguments(en[key]).join(),
        );
        expect(wrong).toEqual([]);
      });

      it(`spells out every plural category ${code} needs, and no other (CLDR: ${pluralCategoriesOf(code).join(' ')})`, () => {
        const needed = pluralCategoriesOf(code).join(' ');
        const wrong = Object.entries(catalogue).flatMap(([key, text]) =>
          pluralsOf(text)
            .filter((plural) => plural.categories.join(' ') !== needed)
            .map((plural) => `${key} {${plural.argument}}: ${plural.categories.join(' ')}`),
        );
        expect(wrong).toEqual([]);
      });
    });
  }

  it('knows the categories the issue names: Russian one/few/many, Arabic all six, none for Chinese and Japanese', () => {
    expect(pluralCategoriesOf('ru')).toEqual(['few', 'many', 'one', 'other']);
    expect(pluralCategoriesOf('ar')).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    for (const code of ['ja', 'zh-Hans', 'zh-Hant', 'vi'] as const) expect(pluralCategoriesOf(code)).toEqual(['other']);
  });
});
