import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { isOrderInProgress } from './order-rules.ts';
import { useOrder } from './useOrder.ts';
import { useOrderStep } from './useOrderStep.ts';

/**
 * What every page of one order needs: the order (kept live), a clock ticking each second while
 * it is in progress (the countdown), and its steps, each answered with the new order and a toast.
 */
export function useOrderPage(id: string) {
  const { t } = useI18n();
  const toast = useToast();
  const { order, problem, reload, replace } = useOrder(id);
  const now = useNow(order !== null && isOrderInProgress(order.status), 1_000);
  const step = useOrderStep({
    orderId: id,
    reload,
    onDone: (answer) => {
      replace(answer);
      toast(t('web.p2p.order.updated'));
    },
  });
  return { order, problem, reload, now, step };
}
