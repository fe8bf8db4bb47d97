import { type LocaleCode, setLanguageContract } from '@keel/contracts';
import { type MessageKey, translate, translateServerMessage } from '@keel/locales';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api } from '../api/client.ts';
import { session } from '../api/session.ts';
import { applyDocumentLocale, initialLocale, LANG_KEY } from './locale.ts';

export type TranslateVars = Record<string, string | number>;

export interface I18n {
  locale: LocaleCode;
  /** Stores the choice on the device and, when logged in, on the account. */
  setLocale: (locale: LocaleCode) => void;
  /** Takes a language from the account (at login) without sending it back to the server. */
  adoptLocale: (locale: LocaleCode) => void;
  t: (key: MessageKey, vars?: TranslateVars) => string;
  /** A server message (the catalogue's English `msg`) in the user's language. */
  tServer: (msg: string) => string;
  /** Like `t`, but `{name}` holes may be filled with elements such as links. */
  tRich: (key: MessageKey, parts: Record<string, ReactNode>) => ReactNode[];
}

const I18nContext = createContext<I18n | null>(null);

function splitRich(text: string, parts: Record<string, ReactNode>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return name !== undefined && name in parts ? parts[name] : piece;
  });
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<LocaleCode>(initialLocale);

  useEffect(() => {
    applyDocumentLocale(locale);
    document.title = translate(locale, 'web.app.name');
  }, [locale]);

  const setLocale = useCallback((next: LocaleCode) => {
    localStorage.setItem(LANG_KEY, next);
    setLocaleState(next);
    // The account keeps the choice too (decisions page, "Languages"); the device choice stands
    // even if this call fails, and the client's session rules handle an ended session.
    if (session.token()) api(setLanguageContract, { body: { language: next } }).catch(() => {});
  }, []);

  const adoptLocale = useCallback((next: LocaleCode) => {
    localStorage.setItem(LANG_KEY, next);
    setLocaleState(next);
  }, []);

  const value = useMemo<I18n>(
    () => ({
      locale,
      setLocale,
      adoptLocale,
      t: (key, vars) => translate(locale, key, vars),
      tServer: (msg) => translateServerMessage(locale, msg),
      tRich: (key, parts) => splitRich(translate(locale, key), parts),
    }),
    [locale, setLocale, adoptLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
