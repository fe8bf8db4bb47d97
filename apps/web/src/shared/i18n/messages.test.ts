import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogues, readCatalogue } from '@keel/locales';
import { cataloguePartOf } from '@keel/locales/browser';
import { describe, expect, it } from 'vitest';
import { webMessages } from './messages.ts';
import { keysOfScreens } from './screen-keys.ts';

/** Every string literal in the app's source that is shaped like a message key. */
function keyLiterals(dir: string): { file: string; key: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/['"`]((?:web|admin|error|notify)\.[\w.]*\w)['"`]/g)].map((match) => ({
        file,
        key: match[1] as string,
      })),
    );
}

describe('the user app’s messages', () => {
  it('download the app’s texts and the errors in the language asked for, and show them', async () => {
    await webMessages.switchTo('de');
    expect(webMessages.current()).toBe('de');
    expect(webMessages.t('web.app.name')).toBe(readCatalogue('web', 'de')['web.app.name']);
    expect(webMessages.tServer('user status incorrect')).toBe(readCatalogue('error', 'de')['error.USER_STATUS_INCORRECT']);
    await webMessages.switchTo('fr-pro');
    expect(webMessages.t('error.UNKNOWN')).toBe(catalogues['fr-pro']['error.UNKNOWN'] ?? catalogues.fr['error.UNKNOWN']);
  });

  it('use only keys the app downloads (web.*, error.*)', () => {
    // tsc checks that every key exists (`t` takes a MessageKey); this checks the app downloads it.
    const english = catalogues.en as Record<string, string>;
    const wrong = keyLiterals(join(import.meta.dirname, '../..')).filter(
      ({ key }) => key in english && !(key.startsWith('web.') || key.startsWith('error.')),
    );
    expect(wrong).toEqual([]);
  });

  it('have every text the tab bar and the five tabs show in the parts a tab loads (start and tabs)', () => {
    const src = join(import.meta.dirname, '../..');
    const tabScreens = [
      'app/TabShell.tsx',
      'routes/mobile/index/HomePage.tsx',
      'routes/mobile/trade/TradePage.tsx',
      // The trade screen's lazily loaded parts are part of the screen.
      'features/options/OrderForm.tsx',
      'features/options/CandleChart.tsx',
      'routes/mobile/news/NewsPage.tsx',
      'routes/mobile/assets/AssetsPage.tsx',
      'routes/mobile/my/MyPage.tsx',
    ].map((file) => join(src, file));
    const shown = keysOfScreens(tabScreens);
    expect(shown.length).toBeGreaterThan(100);
    const elsewhere = shown.filter(({ key }) => cataloguePartOf(key) === 'more').map(({ file, key }) => `${key} (${file.slice(src.length + 1)})`);
    expect(elsewhere).toEqual([]);
  });
});
