import type { QueryClient } from '@tanstack/react-query';
import { queryClient } from '../shared/api/queries.ts';
import { session } from '../shared/api/session.ts';
import { webMessages } from '../shared/i18n/messages.ts';

/**
 * A route loader that starts the screen's first reads (TanStack Query's prefetch) and returns at
 * once: react-router runs it alongside the download of the screen's chunk, so the answers arrive
 * with the screen instead of after it has rendered (issue 14's first-paint budget). It never waits
 * and never fails the navigation; without a session there is nothing to read (the guard sends the
 * visitor to log in).
 */
function prefetchOnEntry(prefetch: (client: QueryClient) => void) {
  return () => {
    if (session.token()) prefetch(queryClient);
    return null;
  };
}

// Home has none: its largest text is static and paints with the screen, and answers arriving
// during the first render only delayed that paint (Lighthouse on /index: LCP 3.3 s with a
// prefetch of the balances and the user, 2.8–3.2 s without; ADR 0025).

/** The trade tab: the options overview and the order lists (useOptions). */
export const tradeLoader = prefetchOnEntry((client) => {
  // Imported, not named: it holds the options contracts, and with them zod, which the shell's first
  // script does without. The trade screen's chunk (started by first-screen.ts) brings the same
  // module, so the requests start as soon as it has arrived, before the screen renders.
  void import('../features/options/option-queries.ts').then(({ prefetchTradeScreen }) => prefetchTradeScreen(client));
});

/**
 * A leverage screen of the trade tab (issue 16): its first reads (useLeverage) start as soon as its
 * chunk is in, before it renders; the screen's texts are the feature pages' (`web.leverage.*`, the `more` part of the catalogue), which
 * the route waits for as the pages outside the tabs do, fetched beside the screen's chunk.
 */
export function leverageLoader(product: 'leveraged' | 'futures') {
  const prefetch = prefetchOnEntry((client) => {
    // From the screen's own chunk (which the route is fetching anyway): its reads name the leverage
    // contracts, which a chunk of their own would share with the screen (ADR 0025's chunk rules).
    void import('../routes/mobile/trade/LeveragePages.tsx').then(({ prefetchLeverageScreen }) => prefetchLeverageScreen(client, product));
  });
  return async () => {
    prefetch();
    if (session.token()) await webMessages.loadLater('more');
    return null;
  };
}
