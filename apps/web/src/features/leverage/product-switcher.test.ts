import { join } from 'node:path';
import { cataloguePartOf } from '@keel/locales/browser';
import { describe, expect, it } from 'vitest';
import { keysOfScreens } from '../../shared/i18n/screen-keys.ts';

// The product switcher sits above the contract screen (/trade), the trade tab's first screen: its
// texts must come with the tab's download (start or tabs), never wait for the feature pages' part.
// The leverage screens name `web.leverage.*` (the feature pages' part), which their route loads.

const src = join(import.meta.dirname, '../..');

describe('the trade tab’s texts', () => {
  it('the switcher and its frame show only texts of the parts a tab loads', () => {
    const shown = keysOfScreens([join(src, 'routes/mobile/trade/TradeProducts.tsx')]);
    expect(shown.map(({ key }) => key)).toEqual(expect.arrayContaining(['web.tab.product.label', 'web.tab.product.futures']));
    expect(shown.filter(({ key }) => cataloguePartOf(key) === 'more')).toEqual([]);
  });

  it('the leverage screens’ own texts are the feature pages’ part, which their route waits for', () => {
    const shown = keysOfScreens([join(src, 'routes/mobile/trade/LeveragePages.tsx')]);
    const parts = new Set(shown.filter(({ key }) => key.startsWith('web.leverage.')).map(({ key }) => cataloguePartOf(key)));
    expect([...parts]).toEqual(['more']);
  });
});
