import { describe, expect, it } from 'vitest';
import { catalogues, readCatalogue, translate, translateServerMessage } from './index.ts';

describe('translate (the server: every language in memory, synchronous)', () => {
  it('falls back key by key: fr-pro → fr, it-pro → it', () => {
    const formal = readCatalogue('web', 'fr-pro');
    const plain = readCatalogue('web', 'fr');
    const inherited = Object.keys(plain).find((key) => !(key in formal)) as keyof typeof plain;
    const own = Object.keys(formal)[0] as keyof typeof formal;
    expect(inherited).toBeDefined();
    expect(translate('fr-pro', inherited)).toBe(plain[inherited]);
    expect(translate('fr-pro', own)).toBe(formal[own]);
    expect(translate('fr-pro', own)).not.toBe(plain[own]);
    const italian = readCatalogue('error', 'it');
    const formalItalian = readCatalogue('error', 'it-pro');
    const fromItalian = Object.keys(italian).find((key) => !(key in formalItalian)) as keyof typeof italian;
    expect(translate('it-pro', fromItalian)).toBe(italian[fromItalian]);
  });

  it('fills ICU arguments', () => {
    expect(translate('en', 'notify.antiPhishing', { code: 'ZX81' })).toContain('ZX81');
    expect(translate('en', 'notify.antiPhishing', { code: 'ZX81' })).not.toContain('{code}');
  });

  it('formats plurals by the language’s CLDR rules', () => {
    const minutes = (locale: 'en' | 'ru' | 'ar', n: number) => translate(locale, 'notify.code.register', { code: '123456', minutes: n });
    expect(minutes('en', 1)).toContain('1 minute.');
    expect(minutes('en', 5)).toContain('5 minutes.');
    expect(minutes('ru', 1)).toContain('1 минуту');
    expect(minutes('ru', 3)).toContain('3 минуты');
    expect(minutes('ru', 5)).toContain('5 минут');
    expect(minutes('ar', 2)).toContain('دقيقتين');
    expect(minutes('ar', 5)).toContain('5 دقائق');
    expect(minutes('ar', 11)).toContain('11 دقيقة');
  });

  it('shows a server message by its catalogue text, and an unknown one as a generic error', () => {
    expect(translateServerMessage('en', 'user status incorrect')).toBe(catalogues.en['error.USER_STATUS_INCORRECT']);
    expect(translateServerMessage('de', 'no such text')).toBe(catalogues.de['error.UNKNOWN']);
  });
});
