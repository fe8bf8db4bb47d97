import type { C2cKind } from '@keel/domain';
import { type ComponentPropsWithRef, useCallback } from 'react';
import type { FieldError } from 'react-hook-form';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Segmented, TextField } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { Fact } from '../wallet/WalletParts.tsx';
import { C2C_FIAT_SCALE, C2C_USDT_SCALE, type C2cAmountIn, type C2cFigures } from './c2c-figures.ts';
import { c2cProblemOfMessage } from './c2c-form.ts';
import { type C2cCountryOption, FiatAmount, PriceText, UsdtAmount, useUsdtText } from './C2cParts.tsx';

/** The words of an amount field's problems in a C2C form: the merchants' limits, the fiat account, then the shared amount words. */
export function useC2cAmountErrorText() {
  const { t } = useI18n();
  const moneyErrorText = useMoneyErrorText();
  const usdtText = useUsdtText();
  return useCallback(
    (error: Pick<FieldError, 'message'> | undefined, words: { amountIn: C2cAmountIn; currency: string; option: C2cCountryOption | undefined }) => {
      switch (c2cProblemOfMessage(error?.message)) {
        case 'tooSmall':
          return t('web.c2c.amount.tooSmall');
        case 'belowMin':
          return t('web.c2c.amount.belowMin', { min: usdtText(words.option?.minUsdt ?? '0') });
        case 'aboveMax':
          return t('web.c2c.amount.aboveMax', { max: usdtText(words.option?.maxUsdt ?? '0') });
        case 'aboveAvailable':
          return t('web.c2c.amount.aboveAvailable');
        default:
          return moneyErrorText(error, {
            required: t('web.c2c.amount.required'),
            asset: words.amountIn === 'fiat' ? words.currency : 'USDT',
            scale: words.amountIn === 'fiat' ? C2C_FIAT_SCALE : C2C_USDT_SCALE,
          });
      }
    },
    [t, moneyErrorText, usdtText],
  );
}

/**
 * The amount of a C2C order: what it is typed in (the country's currency or USDT), the field, the
 * merchants' limits, and both amounts at the best price now, computed live by the domain's
 * conversion with its rounding (`figures`).
 */
export function C2cAmountInput({
  kind,
  option,
  amountIn,
  onAmountIn,
  field,
  error,
  figures,
}: {
  kind: C2cKind;
  option: C2cCountryOption;
  amountIn: C2cAmountIn;
  onAmountIn: (next: C2cAmountIn) => void;
  /** The amount's `register('amount')` props. */
  field: Omit<ComponentPropsWithRef<'input'>, 'id'>;
  error: string | undefined;
  figures: C2cFigures | null;
}) {
  const { t } = useI18n();
  const usdtText = useUsdtText();
  const { currency } = option;
  const label =
    kind === 'deposit'
      ? amountIn === 'fiat'
        ? t('web.c2c.amount.depositFiat', { currency })
        : t('web.c2c.amount.depositUsdt')
      : amountIn === 'fiat'
        ? t('web.c2c.amount.withdrawalFiat', { currency })
        : t('web.c2c.amount.withdrawalUsdt');
  const limits =
    option.minUsdt && option.maxUsdt ? t('web.c2c.amount.limits', { min: usdtText(option.minUsdt), max: usdtText(option.maxUsdt) }) : undefined;
  const fiatFact = (
    <Fact label={kind === 'deposit' ? t('web.c2c.preview.youPay') : t('web.c2c.preview.youReceive')} testId="c2c-preview-fiat">
      {figures ? <FiatAmount value={figures.fiat} currency={currency} /> : '—'}
    </Fact>
  );
  const usdtFact = (
    <Fact label={kind === 'deposit' ? t('web.c2c.preview.youReceive') : t('web.c2c.preview.youSell')} testId="c2c-preview-usdt">
      {figures ? <UsdtAmount value={figures.usdt} /> : '—'}
    </Fact>
  );
  return (
    <div className="c2c-amount">
      <Segmented<C2cAmountIn>
        label={t('web.c2c.amount.in')}
        value={amountIn}
        options={[
          { value: 'fiat', label: currency, testId: 'c2c-amount-in-fiat' },
          { value: 'usdt', label: 'USDT', testId: 'c2c-amount-in-usdt' },
        ]}
        onChange={onAmountIn}
      />
      <TextField label={label} inputMode="decimal" autoComplete="off" placeholder="0.00" maxLength={40} hint={limits} data-testid="c2c-amount" {...field} error={error} />
      <dl className="facts facts-strong c2c-preview" data-testid="c2c-preview">
        {kind === 'deposit' ? (
          <>
            {fiatFact}
            {usdtFact}
          </>
        ) : (
          <>
            {usdtFact}
            {fiatFact}
          </>
        )}
        <Fact label={t('web.c2c.preview.price')} testId="c2c-preview-price">
          {option.bestPrice ? <PriceText value={option.bestPrice} currency={currency} /> : '—'}
        </Fact>
      </dl>
      <p className="field-hint" data-testid="c2c-rounding">
        {kind === 'deposit' ? t('web.c2c.preview.roundingDeposit') : t('web.c2c.preview.roundingWithdrawal')}
      </p>
    </div>
  );
}
