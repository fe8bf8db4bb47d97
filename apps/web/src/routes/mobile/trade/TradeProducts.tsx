import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { ProductSwitcher } from '../../../features/leverage/ProductSwitcher.tsx';
import '../../../features/leverage/product-switcher.css';

/**
 * The trade tab's frame (issue 16): the product switcher — contracts, leveraged, futures — above
 * the product's screen (/trade and /trade_{id}, /trade/leveraged, /trade/futures).
 */
export function TradeProducts({ children }: { children?: ReactNode }) {
  return (
    <>
      <div className="product-switcher-frame">
        <ProductSwitcher />
      </div>
      {children ?? <Outlet />}
    </>
  );
}
