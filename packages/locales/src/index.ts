import { errorKeyFromMsg, type LocaleCode, localeFallbacks } from '@keel/contracts';
import ar from '../catalogues/ar.json' with { type: 'json' };
import de from '../catalogues/de.json' with { type: 'json' };
import en from '../catalogues/en.json' with { type: 'json' };
import es from '../catalogues/es.json' with { type: 'json' };
import fr from '../catalogues/fr.json' with { type: 'json' };
import frPro from '../catalogues/fr-pro.json' with { type: 'json' };
import it from '../catalogues/it.json' with { type: 'json' };
import itPro from '../catalogues/it-pro.json' with { type: 'json' };
import ja from '../catalogues/ja.json' with { type: 'json' };
import ru from '../catalogues/ru.json' with { type: 'json' };
import vi from '../catalogues/vi.json' with { type: 'json' };
import zhHans from '../catalogues/zh-Hans.json' with { type: 'json' };
import zhHant from '../catalogues/zh-Hant.json' with { type: 'json' };

/** Every key a catalogue may have; English is the reference catalogue. */
export type MessageKey = keyof typeof en;

export type Catalogue = Partial<Record<MessageKey, string>>;

/** The 13 catalogues, one JSON file each under `catalogues/`. */
export const catalogues: Record<LocaleCode, Catalogue> = {
  en,
  de,
  es,
  fr,
  'fr-pro': frPro,
  it,
  'it-pro': itPro,
  ru,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  ja,
  vi,
  ar,
};

/**
 * Looks a key up along the locale's fallback chain (fr-pro → fr → en) and fills `{name}` holes.
 * English is the last resort at run time only; the catalogue test requires every key everywhere.
 */
export function translate(locale: LocaleCode, key: MessageKey, vars?: Record<string, string | number>): string {
  let text: string = key;
  for (const candidate of localeFallbacks(locale)) {
    const found = catalogues[candidate][key];
    if (found !== undefined) {
      text = found;
      break;
    }
  }
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (hole, name: string) => (name in vars ? String(vars[name]) : hole));
}

/** Shows a server message (the catalogue's English `msg`) in the user's language. */
export function translateServerMessage(locale: LocaleCode, msg: string): string {
  const key = errorKeyFromMsg(msg);
  return translate(locale, key ? (`error.${key}` as MessageKey) : 'error.UNKNOWN');
}
