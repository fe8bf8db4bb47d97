import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { localeCodes } from '@keel/contracts';
import { describe, expect, it } from 'vitest';

// The catalogue files themselves, read as the build reads them: one JSON object of flat keys each.
const dir = resolve(import.meta.dirname, '../../../../../packages/locales/catalogues');
const load = (code: string) => JSON.parse(readFileSync(resolve(dir, `${code}.json`), 'utf8')) as Record<string, unknown>;
const en = load('en');
const enKeys = Object.keys(en);
const holes = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('locale catalogues', () => {
  it('has exactly one file per locale', () => {
    const files = readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    expect(files.sort()).toEqual([...localeCodes].sort());
  });

  it('has a non-empty English text for every key', () => {
    for (const key of enKeys) expect(typeof en[key] === 'string' && (en[key] as string).trim() !== '', key).toBe(true);
  });

  for (const code of localeCodes.filter((each) => each !== 'en')) {
    describe(code, () => {
      const catalogue = load(code);

      it('has every English key, with a non-empty text', () => {
        const missing = enKeys.filter((key) => typeof catalogue[key] !== 'string' || (catalogue[key] as string).trim() === '');
        expect(missing).toEqual([]);
      });

      it('has no key that English lacks', () => {
        expect(Object.keys(catalogue).filter((key) => !(key in en))).toEqual([]);
      });

      it('keeps the same {placeholders} as English', () => {
        const wrong = enKeys.filter(
          (key) => typeof catalogue[key] === 'string' && holes(catalogue[key] as string).join() !== holes(en[key] as string).join(),
        );
        expect(wrong).toEqual([]);
      });
    });
  }
});
