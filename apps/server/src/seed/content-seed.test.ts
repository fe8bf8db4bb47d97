import { contentKinds, contentLanguages, helpCategories } from '@keel/domain';
import { translationProblems } from '@keel/domain/content-markdown';
import { describe, expect, it } from 'vitest';
import { demoContentItems, demoContentTexts } from './content-seed.ts';

// The demo content is real help for users (issue 20): every item has a text in every language
// (French and Italian are written in the formal register, so their formal variants read the base
// language's text, ADR 0044), each passes the sanitiser's rules, and a translation keeps the
// English text's links, tables and numbers, so no language promises another rule.

const items = demoContentItems();
const english = demoContentTexts('en');
/** The formal variants read their base language's text (the content language chain). */
const written = contentLanguages.filter((l) => l !== 'fr-pro' && l !== 'it-pro');

const linksOf = (body: string) => [...body.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).sort();
/** The numbers of a text as digits only: "50,000", "50.000" and "50 000" are one number; "1.5, 500" are two. */
const numbersOf = (text: string) =>
  [...text.matchAll(/\d+(?:[.,'\u066C\u2009\u202F\u00A0 ]\d+)*/g)].map((m) => m[0].replace(/\D/g, '')).sort();
const tableRowsOf = (body: string) => body.split('\n').filter((line) => line.trim().startsWith('|')).length;

describe('the demo content', () => {
  it('lists valid items: known kinds and categories, lessons of a listed course, sample-labelled industry news', () => {
    const slugs = new Set(items.map((i) => i.slug));
    expect(slugs.size).toBe(items.length);
    for (const item of items) {
      expect(contentKinds).toContain(item.kind);
      if (item.kind === 'help') expect(helpCategories).toContain(item.category);
      if (item.kind === 'lesson') expect(items.find((i) => i.slug === item.parent)?.kind).toBe('course');
      if (item.kind === 'industry_news') expect(item.sample).toBe(true);
    }
    for (const category of helpCategories) expect(items.some((i) => i.category === category), category).toBe(true);
  });

  it.each(written)('has every item in %s, publishable, with the English links, tables and numbers', (language) => {
    const texts = demoContentTexts(language);
    expect(Object.keys(texts).sort()).toEqual(items.map((i) => i.slug).sort());
    for (const item of items) {
      const text = texts[item.slug]!;
      const source = english[item.slug]!;
      expect(translationProblems(item.kind, text), `${language} ${item.slug}`).toEqual([]);
      expect(linksOf(text.body), `${language} ${item.slug} links`).toEqual(linksOf(source.body));
      expect(tableRowsOf(text.body), `${language} ${item.slug} table rows`).toBe(tableRowsOf(source.body));
      expect(numbersOf(text.body), `${language} ${item.slug} numbers`).toEqual(numbersOf(source.body));
      if (item.kind === 'industry_news') expect(text.body.split('\n')[0], `${language} ${item.slug} sample note`).toMatch(/^\*.+\*$/);
    }
  });
});
