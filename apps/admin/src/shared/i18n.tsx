import { ApiError, type LocaleCode, localeCodes, rtlLocales } from '@keel/contracts';
import { type MessageKey, translate, translateServerMessage } from '@keel/locales';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

const STORAGE_KEY = 'adminLang';

function initialLocale(): LocaleCode {
  const stored = localStorage.getItem(STORAGE_KEY);
  return (localeCodes as readonly string[]).includes(stored ?? '') ? (stored as LocaleCode) : 'en';
}

interface I18n {
  locale: LocaleCode;
  setLocale: (locale: LocaleCode) => void;
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
  tServer: (msg: string) => string;
  /** A failed call as text: the server's catalogue message translated, or a generic error. */
  describeError: (error: unknown) => string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<LocaleCode>(initialLocale);
  useEffect(() => {
    document.documentElement.lang = locale;
    document.documentElement.dir = rtlLocales.has(locale) ? 'rtl' : 'ltr';
  }, [locale]);
  const setLocale = useCallback((next: LocaleCode) => {
    localStorage.setItem(STORAGE_KEY, next);
    setLocaleState(next);
  }, []);
  const value = useMemo<I18n>(
    () => ({
      locale,
      setLocale,
      t: (key, vars) => translate(locale, key, vars),
      tServer: (msg) => translateServerMessage(locale, msg),
      describeError: (error) =>
        error instanceof ApiError ? translateServerMessage(locale, error.message) : translate(locale, 'error.UNKNOWN'),
    }),
    [locale, setLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
