import type { Transparency } from '@keel/contracts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card } from '../../shared/ui/components.tsx';
import { ValueFact as TransparencyFact, useTermText } from '../../shared/ui/Facts.tsx';
import { PenaltyFormula, ProductFacts } from '../earn/EarnParts.tsx';
import { ppmPercent, secondsText } from '../leverage/leverage-logic.ts';
import { BracketsTable, LeverageRuleList, productKeys, useNumberText } from '../leverage/LeverageParts.tsx';
import { CreditPolicyRules, LoanProductFacts } from '../loans/LoanTerms.tsx';
import { RangeText, SettlementRule, useCycleText } from '../options/OptionsParts.tsx';
import { ChannelName } from '../wallet/WalletParts.tsx';
import { WithdrawRules } from '../wallet/WithdrawRules.tsx';
import '../leverage/leverage.css';
import '../loans/loans.css';
import '../options/options.css';

type Rules = Transparency['rules'];

/** A percent as the API writes it ("0.10"), with its sign, left to right. */
function Percent({ value, testId }: { value: string; testId?: string }) {
  return <Amount value={value} suffix=" %" testId={testId} />;
}

/** Swaps (spread, fee, how long a quote holds) and the P2P release fee. */
function SwapAndP2pRules({ rules }: { rules: Rules }) {
  const { t } = useI18n();
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-rules-swap">
        <h2 className="card-title">{t('web.transparency.swap.title')}</h2>
        <dl className="facts">
          <TransparencyFact label={t('web.transparency.swap.spread')} testId="transparency-swap-spread" value={rules.swap.spreadPercent}>
            <Percent value={rules.swap.spreadPercent} />
          </TransparencyFact>
          <TransparencyFact label={t('web.transparency.swap.fee')} testId="transparency-swap-fee" value={rules.swap.feePercent}>
            <Percent value={rules.swap.feePercent} />
          </TransparencyFact>
          <TransparencyFact label={t('web.transparency.swap.quote')} testId="transparency-swap-quote" value={String(rules.swap.quoteValidSeconds)}>
            <bdi dir="ltr" className="num">
              {t('web.transparency.seconds', { seconds: rules.swap.quoteValidSeconds })}
            </bdi>
          </TransparencyFact>
          <TransparencyFact label={t('web.transparency.p2p.fee')} testId="transparency-p2p-fee" value={rules.p2p.releaseFeePercent}>
            <Percent value={rules.p2p.releaseFeePercent} />
          </TransparencyFact>
        </dl>
      </div>
    </Card>
  );
}

/** Every deposit and withdrawal channel: how a deposit is checked, the largest report, the withdrawal fee and minimum. */
function ChannelRules({ channels }: { channels: Rules['wallet']['channels'] }) {
  const { t } = useI18n();
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-rules-channels">
        <h2 className="card-title">{t('web.transparency.channels.title')}</h2>
        <ul className="transparency-stack">
          {channels.map((channel) => (
            <li key={channel.id} className="transparency-item" data-testid={`transparency-channel-${channel.id}`}>
              <h3 className="transparency-subtitle">
                <ChannelName channel={channel.id} />
              </h3>
              <dl className="facts">
                <TransparencyFact label={t('web.transparency.channels.deposit')} testId="transparency-channel-deposit">
                  {!channel.depositEnabled
                    ? t('web.transparency.channels.off')
                    : channel.depositReview === 'chain'
                      ? t('web.deposit.reviewChain', { count: channel.confirmations })
                      : t('web.deposit.reviewStaff')}
                </TransparencyFact>
                <TransparencyFact label={t('web.transparency.channels.depositMax')} testId="transparency-channel-deposit-max" value={channel.depositMax}>
                  <Amount value={channel.depositMax} unit={channel.asset} />
                </TransparencyFact>
                <TransparencyFact label={t('web.transparency.channels.withdraw')} testId="transparency-channel-withdraw">
                  {channel.withdrawEnabled ? t('web.withdraw.rules.open') : t('web.transparency.channels.off')}
                </TransparencyFact>
                <TransparencyFact label={t('web.withdraw.fee')} testId="transparency-channel-fee" value={channel.withdrawFee}>
                  <Amount value={channel.withdrawFee} unit={channel.asset} />
                </TransparencyFact>
                <TransparencyFact label={t('web.withdraw.minimum')} testId="transparency-channel-min" value={channel.withdrawMin}>
                  <Amount value={channel.withdrawMin} unit={channel.asset} />
                </TransparencyFact>
              </dl>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}

/** Contracts: every cycle with its payout and stake range, the markets, and the settlement rule. */
function OptionsRules({ options }: { options: Rules['options'] }) {
  const { t } = useI18n();
  const cycleText = useCycleText();
  const num = useNumberText();
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-rules-options">
        <h2 className="card-title">{t('web.transparency.options.title')}</h2>
        <p className="muted">{t('web.transparency.options.intro', { asset: options.asset })}</p>
        <table className="transparency-table" data-testid="transparency-options-products">
          <caption>{t('web.transparency.options.products')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('web.options.cycle')}</th>
              <th scope="col">{t('web.options.yield')}</th>
              <th scope="col">{t('web.options.stake')}</th>
            </tr>
          </thead>
          <tbody>
            {options.products.map((product) => (
              <tr
                key={product.cycleSeconds}
                data-testid={`transparency-options-product-${product.cycleSeconds}`}
                data-yield={product.yieldPercent}
                data-min={product.minStake}
                data-max={product.maxStake}
                data-enabled={product.enabled}
              >
                <th scope="row">
                  <bdi dir="ltr" className="num">
                    {cycleText(product.cycleSeconds)}
                  </bdi>
                </th>
                <td data-testid="transparency-options-yield">{product.enabled ? <Percent value={product.yieldPercent} /> : t('web.options.cycleOff')}</td>
                <td>
                  <RangeText min={product.minStake} max={product.maxStake} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="field-hint" data-testid="transparency-options-markets">
          {t('web.transparency.markets', { markets: `\u2066${options.symbols.join(', ')}\u2069` })}
        </p>
        <SettlementRule rule={options.rule} />
        <p className="field-hint" data-testid="transparency-options-price-age">
          {t('web.transparency.options.priceAge', { seconds: num(secondsText(options.rule.openTickMaxAgeMs)) })}
        </p>
      </div>
    </Card>
  );
}

/** Leveraged and futures: the mark price rule, fees, spread, liquidation, each product's brackets, the funding and interest rates. */
function LeverageRules({ leverage }: { leverage: Rules['leverage'] }) {
  const { t } = useI18n();
  const num = useNumberText();
  const { rules } = leverage;
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-rules-leverage">
        <h2 className="card-title">{t('web.transparency.leverage.title')}</h2>
        <p className="options-rule" data-testid="transparency-leverage-mark">
          {t('web.leverage.mark.rule', { ticks: rules.markPrice.ticks, seconds: num(secondsText(rules.markPrice.windowMs)), min: rules.markPrice.minTicks })}
        </p>
        <LeverageRuleList rules={rules} />
        <p className="field-hint" data-testid="transparency-leverage-markets">
          {t('web.transparency.markets', { markets: `\u2066${leverage.symbols.join(', ')}\u2069` })}
        </p>
        {leverage.products.map((product) => (
          <div key={product.product} className="transparency-item" data-testid={`transparency-leverage-${product.product}`}>
            <h3 className="transparency-subtitle">{t(productKeys[product.product])}</h3>
            <dl className="facts">
              <TransparencyFact label={t('web.leverage.brackets.maxLeverage')} testId="transparency-leverage-max" value={String(product.maxLeverage)}>
                <bdi dir="ltr" className="num">
                  {t('web.leverage.times', { leverage: product.maxLeverage })}
                </bdi>
              </TransparencyFact>
            </dl>
            {product.product === 'leveraged' ? (
              <p data-testid="transparency-leverage-interest" data-ppm={rules.interestRatePpmPerHour}>
                {t('web.leverage.rules.interest', { rate: num(ppmPercent(rules.interestRatePpmPerHour)) })}
              </p>
            ) : (
              <>
                <p>{t('web.leverage.rules.fundingShort', { hours: rules.fundingIntervalHours })}</p>
                <p className="field-hint">{t('web.transparency.leverage.fundingSign')}</p>
                <table className="transparency-table" data-testid="transparency-leverage-funding">
                  <caption className="visually-hidden">{t('web.leverage.fundingRate', { hours: rules.fundingIntervalHours })}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('web.options.market')}</th>
                      <th scope="col">{t('web.leverage.fundingRate', { hours: rules.fundingIntervalHours })}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rules.fundingRates.map((rate) => (
                      <tr key={rate.symbol} data-testid={`transparency-funding-${rate.symbol.replace('/', '')}`} data-ppm={rate.ratePpm}>
                        <th scope="row">
                          <bdi dir="ltr">{rate.symbol}</bdi>
                        </th>
                        <td>
                          <Amount value={ppmPercent(rate.ratePpm)} min={0} suffix=" %" />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
            {/* A frame that scrolls when the table is wider than the phone; focusable, so a keyboard can scroll it too (axe scrollable-region-focusable). */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard */}
            <section className="transparency-scroll" aria-label={`${t(productKeys[product.product])} · ${t('web.leverage.brackets.title')}`} tabIndex={0}>
              <BracketsTable brackets={product.brackets} testId={`transparency-brackets-${product.product}`} />
            </section>
          </div>
        ))}
      </div>
    </Card>
  );
}

/** Earn: every product's terms, with its early-redemption penalty formula worked through at its own rate. */
function EarnRules({ earn }: { earn: Rules['earn'] }) {
  const { t } = useI18n();
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-rules-earn">
        <h2 className="card-title">{t('web.transparency.earn.title')}</h2>
        {earn.products.length === 0 ? (
          <p className="muted" data-testid="transparency-earn-none">
            {t('web.transparency.earn.none')}
          </p>
        ) : (
          earn.products.map((product) => (
            <article key={product.id} className="transparency-item" data-testid={`transparency-earn-${product.id}`} aria-labelledby={`transparency-earn-${product.id}-title`}>
              <h3 className="transparency-subtitle" id={`transparency-earn-${product.id}-title`}>
                {product.name} · {t(product.kind === 'lockup' ? 'web.earn.kind.lockup' : 'web.earn.kind.financial')}
              </h3>
              <ProductFacts product={product} testPrefix={`transparency-earn-${product.id}`} />
              <PenaltyFormula product={product} />
              {!product.open && <p className="muted">{t('web.earn.closed')}</p>}
            </article>
          ))
        )}
      </div>
    </Card>
  );
}

/** Loans: every product's terms, the credit policy (score rule, bands, tier caps) and the two-person review. */
function LoanRules({ loans }: { loans: Rules['loans'] }) {
  const { t } = useI18n();
  const text = useTermText();
  return (
    <Card className="transparency-card">
      <div className="transparency-body" data-testid="transparency-rules-loans">
        <h2 className="card-title">{t('web.transparency.loans.title')}</h2>
        {loans.products.length === 0 ? (
          <p className="muted" data-testid="transparency-loans-none">
            {t('web.loans.products.none')}
          </p>
        ) : (
          loans.products.map((product) => (
            <article key={product.id} className="transparency-item" data-testid={`transparency-loan-${product.id}`} aria-labelledby={`transparency-loan-${product.id}-title`}>
              <h3 className="transparency-subtitle" id={`transparency-loan-${product.id}-title`}>
                {product.name}
              </h3>
              <LoanProductFacts product={product} testPrefix={`transparency-loan-${product.id}`} />
              {!product.open && <p className="muted">{t('web.loans.products.closed')}</p>}
            </article>
          ))
        )}
        <div className="transparency-item" data-testid="transparency-loans-policy">
          <h3 className="transparency-subtitle">{t('web.transparency.loans.policy')}</h3>
          <CreditPolicyRules policy={loans.policy} />
          <p className="field-hint">{t('web.loans.credit.twoPerson', { amount: text.amount(loans.policy.twoPersonAboveUsdt, 'USDT') })}</p>
        </div>
      </div>
    </Card>
  );
}

/** (d) Every published rule in one place, each with the value the server applies. */
export function PublishedRules({ rules }: { rules: Rules }) {
  const { t } = useI18n();
  return (
    <section className="transparency-section" aria-labelledby="transparency-rules-title" data-testid="transparency-rules">
      <h2 className="transparency-section-title" id="transparency-rules-title">
        {t('web.transparency.rules.title')}
      </h2>
      <p className="muted">{t('web.transparency.rules.intro')}</p>
      <SwapAndP2pRules rules={rules} />
      <ChannelRules channels={rules.wallet.channels} />
      <WithdrawRules rules={rules.wallet.rules} />
      <OptionsRules options={rules.options} />
      <LeverageRules leverage={rules.leverage} />
      <EarnRules earn={rules.earn} />
      <LoanRules loans={rules.loans} />
    </section>
  );
}
