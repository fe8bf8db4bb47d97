import { type LocaleCode, localeCodes, localeNames } from '@keel/contracts';
import { useI18n } from './i18n.tsx';

export function LanguageSelect() {
  const { locale, setLocale, t } = useI18n();
  return (
    <label className="language">
      {t('admin.language')}
      <select value={locale} onChange={(e) => setLocale(e.target.value as LocaleCode)}>
        {localeCodes.map((code) => (
          <option key={code} value={code}>
            {localeNames[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
