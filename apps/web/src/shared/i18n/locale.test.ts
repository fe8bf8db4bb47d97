import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyDocumentLocale, initialLocale, LANG_KEY } from './locale.ts';

describe('the document’s language', () => {
  const documentElement = { lang: 'en', dir: 'ltr' };
  beforeEach(() => {
    vi.stubGlobal('document', { documentElement });
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value) });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is right to left for Arabic and back to left to right after', () => {
    applyDocumentLocale('ar');
    expect(documentElement).toEqual({ lang: 'ar', dir: 'rtl' });
    applyDocumentLocale('de');
    expect(documentElement).toEqual({ lang: 'de', dir: 'ltr' });
  });

  it('names the formal variants by their language', () => {
    applyDocumentLocale('fr-pro');
    expect(documentElement.lang).toBe('fr');
    applyDocumentLocale('it-pro');
    expect(documentElement.lang).toBe('it');
  });

  it('starts in the language stored on the device, else English', () => {
    expect(initialLocale()).toBe('en');
    localStorage.setItem(LANG_KEY, 'ar');
    expect(initialLocale()).toBe('ar');
    localStorage.setItem(LANG_KEY, 'klingon');
    expect(initialLocale()).toBe('en');
  });
});
