import { useEffect, useState } from 'react';

let firstScreenSettled: Promise<void> | null = null;

/**
 * Resolves once the page has loaded, the next frame has been painted (the first screen commits
 * before the effect that asks, and paints in that frame) and the browser is idle.
 */
function whenFirstScreenSettled(): Promise<void> {
  firstScreenSettled ??= new Promise((settle) => {
    // Not every browser has requestIdleCallback; the timeout bounds the wait where it does.
    const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(() => settle(), { timeout: 2000 }) : setTimeout(settle, 200));
    const afterNextPaint = () => requestAnimationFrame(() => setTimeout(whenIdle, 0));
    if (document.readyState === 'complete') afterNextPaint();
    else window.addEventListener('load', afterNextPaint, { once: true });
  });
  return firstScreenSettled;
}

/**
 * False until the first screen has loaded and painted and the browser is idle, then true. What
 * only decorates the page or waits to be tapped (the particle background, the customer-service
 * button) renders behind it, so its script competes with the first screen's for neither the link
 * nor the main thread (issue 14's Lighthouse budget).
 */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let mounted = true;
    void whenFirstScreenSettled().then(() => mounted && setReady(true));
    return () => {
      mounted = false;
    };
  }, []);
  return ready;
}
