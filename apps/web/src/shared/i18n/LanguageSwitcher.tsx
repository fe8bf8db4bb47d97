import { localeCodes, localeNames } from '@keel/contracts';
import { useId } from 'react';
import { GlobeIcon } from '../ui/icons.tsx';
import { isLocale } from './locale.ts';
import { useI18n } from './I18nProvider.tsx';

/** The language switcher: a native select, so every platform shows its own accessible picker. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { locale, setLocale, t } = useI18n();
  const id = useId();
  return (
    <div className={compact ? 'language-switcher compact' : 'language-switcher'}>
      <label htmlFor={id} className={compact ? 'visually-hidden' : 'language-switcher-label'}>
        {t('web.language.label')}
      </label>
      <span className="language-switcher-control">
        <GlobeIcon />
        <select
          id={id}
          data-testid="language-select"
          value={locale}
          onChange={(event) => {
            if (isLocale(event.target.value)) setLocale(event.target.value);
          }}
        >
          {localeCodes.map((code) => (
            <option key={code} value={code} lang={code.replace(/-pro$/, '')}>
              {localeNames[code]}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
