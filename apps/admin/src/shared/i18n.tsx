import { ApiError, type LocaleCode, localeCodes, rtlLocales } from '@keel/contracts';
import { createLazyMessages, type MessageFunction, type MessageKey, type MessageValues } from '@keel/locales/browser';
import { loadAdminMessages } from '@keel/locales/load/admin';
import { loadErrorMessages } from '@keel/locales/load/error';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';

const STORAGE_KEY = 'adminLang';

function initialLocale(): LocaleCode {
  const stored = localStorage.getItem(STORAGE_KEY);
  return (localeCodes as readonly string[]).includes(stored ?? '') ? (stored as LocaleCode) : 'en';
}

/**
 * The back-office's messages: its own texts (`admin.*`) and the error catalogue's, in the staff
 * member's language only (ADR 0024); the user app's texts are never downloaded.
 */
const adminMessages = createLazyMessages([loadAdminMessages, loadErrorMessages]);
// Starts downloading while React starts.
const firstLoad = adminMessages.switchTo(initialLocale());
firstLoad.catch(() => {}); // shown by FirstLoad

/** Re-render on a language change and when texts arrive (English, when a key was missing). */
const rerenderOn = { useSuspense: false, bindI18n: 'languageChanged', bindI18nStore: 'added' } as const;

interface I18n {
  locale: LocaleCode;
  setLocale: (locale: LocaleCode) => void;
  t: (key: MessageKey, vars?: MessageValues) => string;
  tServer: (msg: string) => string;
  /** A failed call as text: the server's catalogue message translated, or a generic error. */
  describeError: (error: unknown) => string;
}

const I18nContext = createContext<I18n | null>(null);

/** i18next and react-i18next under the back-office's `useI18n()`; nothing renders before the first language is in. */
export function I18nProvider({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={adminMessages.i18n}>
      <Messages>{children}</Messages>
    </I18nextProvider>
  );
}

function Messages({ children }: { children: ReactNode }) {
  const { t: fixedT } = useTranslation(undefined, rerenderOn);
  const locale = adminMessages.current();
  useEffect(() => {
    if (!locale) return;
    document.documentElement.lang = locale;
    document.documentElement.dir = rtlLocales.has(locale) ? 'rtl' : 'ltr';
  }, [locale]);
  const setLocale = useCallback((next: LocaleCode) => {
    localStorage.setItem(STORAGE_KEY, next);
    void adminMessages.switchTo(next).catch(() => {});
  }, []);
  const value = useMemo<I18n | null>(() => {
    if (!locale) return null;
    // `fixedT` changes with the language and with every arrival of texts, so consumers re-render.
    const t = (key: MessageKey, vars?: MessageValues) => (fixedT as unknown as MessageFunction)(key, vars);
    const tServer = (msg: string) => adminMessages.tServer(msg);
    return {
      locale,
      setLocale,
      t,
      tServer,
      describeError: (error) => (error instanceof ApiError ? tServer(error.message) : t('error.UNKNOWN')),
    };
  }, [locale, fixedT, setLocale]);
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
    <button type="button" aria-label="⟳" onClick={() => window.location.reload()}>
      ⟳
    </button>
  );
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
