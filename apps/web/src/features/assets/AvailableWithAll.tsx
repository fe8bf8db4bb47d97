import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button } from '../../shared/ui/components.tsx';

/**
 * Under an amount field: what the source account can spend, and "All" to take it. Shared by the
 * transfer and swap forms; `testIdPrefix` keeps their test ids (`<prefix>-available`, `<prefix>-all`).
 */
export function AvailableWithAll({
  available,
  asset,
  testIdPrefix,
  onAll,
}: {
  /** Decimal string, or undefined while the balances load. */
  available: string | undefined;
  asset: string;
  testIdPrefix: string;
  onAll: (available: string) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="amount-meta">
      <span className="muted">
        {t('web.transfer.available')}{' '}
        {available === undefined ? '…' : <Amount value={available} unit={asset} testId={`${testIdPrefix}-available`} />}
      </span>
      <Button
        variant="ghost"
        className="btn-small"
        disabled={available === undefined}
        data-testid={`${testIdPrefix}-all`}
        onClick={() => {
          if (available !== undefined) onAll(available);
        }}
      >
        {t('web.transfer.all')}
      </Button>
    </div>
  );
}
