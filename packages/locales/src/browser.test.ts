import type { LocaleCode } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { type CatalogueLoader, createLazyMessages, formatWithParts } from './browser.ts';
import type { MessageKey } from './messages.ts';

const key = (text: string) => text as MessageKey;

/** Fake catalogue files: what each language holds, and which were asked for, in order. */
function fakeArea(files: Partial<Record<LocaleCode, Record<string, string>>>) {
  const asked: LocaleCode[] = [];
  const gates = new Map<LocaleCode, () => void>();
  const loader: CatalogueLoader = async (locale) => {
    asked.push(locale);
    const file = files[locale];
    if (!file) throw new Error(`no file for ${locale}`);
    await new Promise<void>((resolve) => gates.set(locale, resolve));
    return file;
  };
  /** Lets the files asked for so far arrive. */
  const arrive = async () => {
    for (const open of gates.values()) open();
    gates.clear();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { loader, asked, arrive };
}

const files = {
  en: { 'web.hello': 'Hello {name}', 'web.only.en': 'Only English', 'web.formal': 'Hello, madam' },
  fr: { 'web.hello': 'Bonjour {name}', 'web.formal': 'Salut' },
  'fr-pro': { 'web.formal': 'Bonjour, madame' },
  de: { 'web.hello': 'Hallo {name}', 'web.formal': 'Guten Tag' },
  ru: { 'web.orders': '{count, plural, one {# заказ} few {# заказа} many {# заказов} other {# заказа}}' },
  ar: { 'web.orders': '{count, plural, zero {لا طلبات} one {طلب واحد} two {طلبان} few {# طلبات} many {# طلبًا} other {# طلب}}' },
} satisfies Partial<Record<LocaleCode, Record<string, string>>>;

describe('createLazyMessages', () => {
  it('downloads only the language asked for, shows nothing before, and keeps it', async () => {
    const area = fakeArea(files);
    const messages = createLazyMessages([area.loader]);
    const switching = messages.switchTo('de');
    expect(messages.current()).toBeNull();
    await area.arrive();
    await switching;
    expect(area.asked).toEqual(['de']);
    expect(messages.current()).toBe('de');
    expect(messages.t(key('web.hello'), { name: 'Ada' })).toBe('Hallo Ada');
    const toFrench = messages.switchTo('fr');
    await area.arrive();
    await toFrench;
    // Back to German: already in memory, nothing is downloaded again.
    await messages.switchTo('de');
    expect(area.asked).toEqual(['de', 'fr']);
    expect(messages.current()).toBe('de');
  });

  it('keeps the old language until the new one is in (no key shows), and the last switch wins', async () => {
    const area = fakeArea(files);
    const messages = createLazyMessages([area.loader]);
    const first = messages.switchTo('de');
    await area.arrive();
    await first;
    const toFrench = messages.switchTo('fr');
    const toRussian = messages.switchTo('ru');
    expect(messages.current()).toBe('de');
    expect(messages.t(key('web.hello'), { name: 'Ada' })).toBe('Hallo Ada');
    await area.arrive();
    await Promise.all([toFrench, toRussian]);
    expect(messages.current()).toBe('ru');
  });

  it('falls back key by key: fr-pro → fr → en, downloading English only when a key is missing', async () => {
    const area = fakeArea(files);
    const messages = createLazyMessages([area.loader]);
    const switching = messages.switchTo('fr-pro');
    await area.arrive();
    await switching;
    expect(area.asked.sort()).toEqual(['fr', 'fr-pro']);
    expect(messages.t(key('web.formal'))).toBe('Bonjour, madame');
    expect(messages.t(key('web.hello'), { name: 'Ada' })).toBe('Bonjour Ada');
    expect(messages.isLoaded('en')).toBe(false);
    // Missing from fr-pro and fr: empty (no key shows) while English downloads, then English.
    expect(messages.t(key('web.only.en'))).toBe('');
    expect(area.asked).toContain('en');
    await area.arrive();
    expect(messages.t(key('web.only.en'))).toBe('Only English');
    expect(messages.t(key('web.no.such.key'))).toBe('web.no.such.key');
  });

  it('merges the areas an app is made of', async () => {
    const web = fakeArea({ en: { 'web.a': 'A' } });
    const errors = fakeArea({ en: { 'error.UNKNOWN': 'Something went wrong' } });
    const messages = createLazyMessages([web.loader, errors.loader]);
    const switching = messages.switchTo('en');
    await web.arrive();
    await errors.arrive();
    await switching;
    expect(messages.t(key('web.a'))).toBe('A');
    expect(messages.tServer('no such server text')).toBe('Something went wrong');
  });

  it('tries a failed download again at the next switch', async () => {
    let failures = 1;
    const loader: CatalogueLoader = async (locale) => {
      if (failures-- > 0) throw new Error('offline');
      return { 'web.a': `A in ${locale}` };
    };
    const messages = createLazyMessages([loader]);
    await expect(messages.switchTo('de')).rejects.toThrow('offline');
    expect(messages.current()).toBeNull();
    await messages.switchTo('de');
    expect(messages.t(key('web.a'))).toBe('A in de');
  });

  it('picks plural forms by CLDR: Russian one/few/many, Arabic zero/one/two/few/many/other', async () => {
    const area = fakeArea(files);
    const messages = createLazyMessages([area.loader]);
    const russian = messages.switchTo('ru');
    await area.arrive();
    await russian;
    const orders = (count: number) => messages.t(key('web.orders'), { count });
    expect([1, 2, 5, 21, 22, 25, 111].map(orders)).toEqual(['1 заказ', '2 заказа', '5 заказов', '21 заказ', '22 заказа', '25 заказов', '111 заказов']);
    const arabic = messages.switchTo('ar');
    await area.arrive();
    await arabic;
    // Latin digits in every language, as amounts are shown.
    expect([0, 1, 2, 3, 11, 100].map(orders)).toEqual(['لا طلبات', 'طلب واحد', 'طلبان', '3 طلبات', '11 طلبًا', '100 طلب']);
  });
});

describe('formatWithParts', () => {
  it('puts elements where the language puts their arguments', () => {
    const link = { element: 'terms' };
    const parts = formatWithParts((values) => `Lisez ${values.terms} avant ${values.date}.`, { terms: link, date: '1 mai' });
    expect(parts).toEqual(['Lisez ', link, ' avant ', '1 mai', '.']);
  });
});

describe('createLazyMessages with texts fetched later', () => {
  const startFiles = { de: { 'web.login': 'Anmelden' }, fr: { 'web.login': 'Connexion' }, en: { 'web.login': 'Log in' } };
  const laterFiles = { de: { 'web.more.orders': 'Aufträge' }, fr: { 'web.more.orders': 'Ordres' }, en: { 'web.more.orders': 'Orders' } };
  const holds = (text: string) => text.startsWith('web.more.');
  /** Shows German once its start texts have arrived. */
  const showStartTexts = async (messages: ReturnType<typeof createLazyMessages>, start: ReturnType<typeof fakeArea>) => {
    const german = messages.switchTo('de');
    await start.arrive();
    await german;
  };

  it('fetches the later texts only once asked, then with every switch of language', async () => {
    const start = fakeArea(startFiles);
    const later = fakeArea(laterFiles);
    const messages = createLazyMessages([start.loader], [{ name: 'more', loaders: [later.loader], holds }]);
    await showStartTexts(messages, start);
    expect(messages.t(key('web.login'))).toBe('Anmelden');
    expect(later.asked).toEqual([]);

    const laterTexts = messages.loadLater();
    await later.arrive();
    await laterTexts;
    expect(later.asked).toEqual(['de']);
    expect(messages.t(key('web.more.orders'))).toBe('Aufträge');

    // A switch now waits for both parts of the new language before showing it.
    const french = messages.switchTo('fr');
    await start.arrive();
    expect(messages.current()).toBe('de');
    await later.arrive();
    await french;
    expect(messages.current()).toBe('fr');
    expect(messages.t(key('web.more.orders'))).toBe('Ordres');
    expect(start.asked).toEqual(['de', 'fr']);
    expect(later.asked).toEqual(['de', 'fr']);
  });

  it('fetches the later part of the language shown, not English, when one of its keys is asked for first', async () => {
    const start = fakeArea(startFiles);
    const later = fakeArea(laterFiles);
    const messages = createLazyMessages([start.loader], [{ name: 'more', loaders: [later.loader], holds }]);
    await showStartTexts(messages, start);
    expect(messages.t(key('web.more.orders'))).toBe('');
    expect(later.asked).toEqual(['de']);
    expect(start.asked).toEqual(['de']);
    await later.arrive();
    expect(messages.t(key('web.more.orders'))).toBe('Aufträge');
  });

  it('fetches each later part when it is asked for by name, and all of them without a name', async () => {
    const start = fakeArea(startFiles);
    const tabs = fakeArea({ de: { 'web.tab.home': 'Start' }, en: { 'web.tab.home': 'Home' } });
    const later = fakeArea(laterFiles);
    const messages = createLazyMessages(
      [start.loader],
      [
        { name: 'tabs', loaders: [tabs.loader], holds: (text) => text.startsWith('web.tab.') },
        { name: 'more', loaders: [later.loader], holds },
      ],
    );
    await showStartTexts(messages, start);

    const tabTexts = messages.loadLater('tabs');
    await tabs.arrive();
    await tabTexts;
    expect(messages.t(key('web.tab.home'))).toBe('Start');
    expect(later.asked).toEqual([]);

    const everything = messages.loadLater();
    await later.arrive();
    await everything;
    expect(messages.t(key('web.more.orders'))).toBe('Aufträge');
    // Each part is fetched once per language.
    expect(tabs.asked).toEqual(['de']);
    expect(later.asked).toEqual(['de']);
  });

  it('resolves at once for an app without later texts', async () => {
    const area = fakeArea(files);
    const messages = createLazyMessages([area.loader]);
    await messages.loadLater();
    expect(area.asked).toEqual([]);
  });
});
