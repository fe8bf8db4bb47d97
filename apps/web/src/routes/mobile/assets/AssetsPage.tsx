import { AssetsOverview } from '../../../features/assets/AssetsOverview.tsx';

/** /assets: the assets tab (spec section 2: totals, transfer, exchange, records). */
export function AssetsPage() {
  return <AssetsOverview />;
}
