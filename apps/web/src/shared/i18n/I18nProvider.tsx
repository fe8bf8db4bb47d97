import type { LocaleCode } from '@keel/contracts';
import { formatWithParts, type MessageFunction, type MessageKey, type MessageValues } from '@keel/locales/browser';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { session } from '../api/session.ts';
import { applyDocumentLocale, initialLocale, LANG_KEY } from './locale.ts';
import { webMessages } from './messages.ts';

export type TranslateVars = MessageValues;

export interface I18n {
  locale: LocaleCode;
  /** Stores the choice on the device and, when logged in, on the account. */
  setLocale: (locale: LocaleCode) => void;
  /** Takes a language from the account (at login) without sending it back to the server. */
  adoptLocale: (locale: LocaleCode) => void;
  /** A message with its ICU arguments filled: `{name}`, `{count, plural, one {…} other {…}}` … */
  t: (key: MessageKey, vars?: TranslateVars) => string;
  /** A server message (the catalogue's English `msg`) in the user's language. */
  tServer: (msg: string) => string;
  /** Like `t`, but arguments may be elements such as links. */
  tRich: (key: MessageKey, parts: Record<string, ReactNode>) => ReactNode[];
}

const I18nContext = createContext<I18n | null>(null);

// The device's language starts downloading as soon as this module runs, while React starts.
const firstLoad = webMessages.switchTo(initialLocale());
firstLoad.catch(() => {}); // shown by FirstLoad

/** Re-render on a language change and when texts arrive (English, when a key was missing). */
const rerenderOn = { useSuspense: false, bindI18n: 'languageChanged', bindI18nStore: 'added' } as const;

/**
 * The app's messages through i18next and react-i18next, one language downloaded at a time. Until
 * the first language is in, nothing renders (no key, no English shows first); a change of
 * language keeps the old texts until the new ones are in.
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={webMessages.i18n}>
      <Messages>{children}</Messages>
    </I18nextProvider>
  );
}

function Messages({ children }: { children: ReactNode }) {
  const { t: fixedT } = useTranslation(undefined, rerenderOn);
  const locale = webMessages.current();

  useEffect(() => {
    if (!locale) return;
    applyDocumentLocale(locale);
    document.title = fixedT('web.app.name');
  }, [locale, fixedT]);

  const setLocale = useCallback((next: LocaleCode) => {
    localStorage.setItem(LANG_KEY, next);
    void webMessages.switchTo(next).catch(() => {});
    // The account keeps the choice too (decisions page, "Languages"); the device choice stands
    // even if this call fails, and the client's session rules handle an ended session.
    if (session.token()) {
      void import('./save-language.ts')
        .then(({ saveLanguageOnAccount }) => saveLanguageOnAccount(next))
        .catch(() => {});
    }
  }, []);

  const adoptLocale = useCallback((next: LocaleCode) => {
    localStorage.setItem(LANG_KEY, next);
    void webMessages.switchTo(next).catch(() => {});
  }, []);

  const value = useMemo<I18n | null>(() => {
    if (!locale) return null;
    // `fixedT` changes with the language and with every arrival of texts, so consumers re-render.
    const t = (key: MessageKey, vars?: TranslateVars) => (fixedT as unknown as MessageFunction)(key, vars);
    return {
      locale,
      setLocale,
      adoptLocale,
      t,
      tServer: (msg) => webMessages.tServer(msg),
      tRich: (key, parts) => formatWithParts((values) => t(key, values), parts),
    };
  }, [locale, fixedT, setLocale, adoptLocale]);

  if (!value) return <FirstLoad />;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** Nothing while the first catalogue downloads; if it cannot, a reload button (no words: no texts yet). */
function FirstLoad() {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    firstLoad.catch(() => setFailed(true));
  }, []);
  if (!failed) return null;
  return (
    <button type="button" className="first-load-retry" aria-label="⟳" onClick={() => window.location.reload()}>
      ⟳
    </button>
  );
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
