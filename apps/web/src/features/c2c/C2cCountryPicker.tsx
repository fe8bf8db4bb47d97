import type { C2cKind } from '@keel/domain';
import { useMemo } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { SelectField } from '../../shared/ui/components.tsx';
import { Fact } from '../wallet/WalletParts.tsx';
import { type C2cCountryOption, PriceText, useCountryName, useUsdtText } from './C2cParts.tsx';

/** Whether some online merchant takes orders in the country now: a price and limits (a deposit's limits are within the merchants' floats). */
export function isServed(option: C2cCountryOption): boolean {
  return option.bestPrice !== null && option.minUsdt !== null && option.maxUsdt !== null;
}

/**
 * The country of a C2C order: every country of the channel with its currency, those no merchant
 * serves now disabled with the reason; below it, the chosen country's currency, best price and
 * order limits.
 */
export function C2cCountryPicker({
  kind,
  countries,
  value,
  onChange,
  loading,
}: {
  kind: C2cKind;
  countries: readonly C2cCountryOption[];
  value: string;
  onChange: (country: string) => void;
  loading: boolean;
}) {
  const { t, locale } = useI18n();
  const countryName = useCountryName();
  const usdtText = useUsdtText();
  const options = useMemo(() => {
    const collator = new Intl.Collator(locale === 'fr-pro' ? 'fr' : locale === 'it-pro' ? 'it' : locale);
    return [...countries]
      .map((option) => ({ option, name: countryName(option.country) }))
      .sort((a, b) => Number(isServed(b.option)) - Number(isServed(a.option)) || collator.compare(a.name, b.name))
      .map(({ option, name }) => ({
        value: option.country,
        label: isServed(option)
          ? t('web.c2c.country.option', { country: name, currency: option.currency })
          : t('web.c2c.country.optionUnavailable', { country: name, currency: option.currency }),
        disabled: !isServed(option),
      }));
  }, [countries, countryName, t, locale]);
  const chosen = countries.find((each) => each.country === value);
  const served = countries.filter(isServed).length;
  return (
    <>
      <SelectField
        label={t('web.c2c.country.label')}
        value={chosen && isServed(chosen) ? value : ''}
        placeholder={loading ? t('web.common.loading') : t('web.c2c.country.choose')}
        options={options}
        onChange={onChange}
        hint={!loading && served === 0 ? t('web.c2c.country.noneServed') : t('web.c2c.country.hint')}
        testId="c2c-country"
      />
      {chosen && isServed(chosen) && (
        <dl className="facts" data-testid="c2c-country-facts">
          <Fact label={t('web.c2c.country.currency')} testId="c2c-country-currency">
            {chosen.currency}
          </Fact>
          <Fact label={kind === 'deposit' ? t('web.c2c.country.bestPriceBuy') : t('web.c2c.country.bestPriceSell')} testId="c2c-country-price">
            <PriceText value={chosen.bestPrice!} currency={chosen.currency} />
          </Fact>
          <Fact label={t('web.c2c.country.limits')} testId="c2c-country-limits">
            {t('web.c2c.country.limitsValue', { min: usdtText(chosen.minUsdt!), max: usdtText(chosen.maxUsdt!) })}
          </Fact>
        </dl>
      )}
    </>
  );
}
