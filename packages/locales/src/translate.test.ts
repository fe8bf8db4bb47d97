import { describe, expect, it } from 'vitest';
import { catalogues, translate, translateServerMessage } from './index.ts';

describe('translate', () => {
  it('falls back key by key: fr-pro → fr → en', () => {
    const saved = { ...catalogues };
    catalogues['fr-pro'] = {};
    catalogues.fr = { 'error.UNKNOWN': 'Erreur' };
    try {
      expect(translate('fr-pro', 'error.UNKNOWN')).toBe('Erreur');
      expect(translate('fr-pro', 'error.TOKEN_EMPTY')).toBe(catalogues.en['error.TOKEN_EMPTY']);
    } finally {
      Object.assign(catalogues, saved);
    }
  });

  it('fills {name} holes', () => {
    catalogues.en['error.UNKNOWN' as never] = 'Hello {name}, {missing}' as never;
    try {
      expect(translate('en', 'error.UNKNOWN', { name: 'Ada' })).toBe('Hello Ada, {missing}');
    } finally {
      catalogues.en['error.UNKNOWN' as never] = 'Something went wrong. Please try again.' as never;
    }
  });

  it('shows a server message by its catalogue text, and an unknown one as a generic error', () => {
    expect(translateServerMessage('en', 'user status incorrect')).toBe(catalogues.en['error.USER_STATUS_INCORRECT']);
    expect(translateServerMessage('en', 'no such text')).toBe(catalogues.en['error.UNKNOWN']);
  });
});
