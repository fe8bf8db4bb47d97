import { useEffect, useState } from 'react';

let firstContentPainted: Promise<void> | null = null;
let firstScreenSettled: Promise<void> | null = null;

/** Resolves at the start of the frame after the next: the frame being prepared has been drawn. */
function afterFrameDrawn(): Promise<void> {
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
}

/**
 * Resolves once the browser has put the page's first text or image on the screen: its
 * `first-contentful-paint` entry exists, which the browser records when the frame was presented,
 * not when the page's script asked for it. Where the browser records no paint timing, after the
 * next frame.
 */
function whenFirstContentPainted(): Promise<void> {
  firstContentPainted ??= new Promise((done) => {
    const supported = typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
    if (!supported) {
      void afterFrameDrawn().then(done);
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      done();
    });
    // Buffered: an entry recorded before this observer existed is delivered too.
    observer.observe({ type: 'paint', buffered: true });
  });
  return firstContentPainted;
}

/**
 * Resolves once the first content has been painted and, after it, the browser is idle (at once
 * when that has happened already). For work the first screen need not wait for, outside React: the
 * push connection loads its frame reader (and with it zod) behind it (realtime.ts).
 */
export function whenFirstScreenSettled(): Promise<void> {
  firstScreenSettled ??= whenFirstContentPainted().then(
    () =>
      new Promise<void>((settle) => {
        // Not every browser has requestIdleCallback; the timeout bounds the wait where it does.
        if ('requestIdleCallback' in window) requestIdleCallback(() => settle(), { timeout: 2000 });
        else setTimeout(settle, 200);
      }),
  );
  return firstScreenSettled;
}

function useOnceResolved(when: () => Promise<void>): boolean {
  const [resolved, setResolved] = useState(false);
  useEffect(() => {
    let mounted = true;
    void when().then(() => mounted && setResolved(true));
    return () => {
      mounted = false;
    };
  }, [when]);
  return resolved;
}

/**
 * False until the page's first content is on the screen, then true. A large part of a screen that
 * is not its first content (the trade screen's chart library) starts its download behind it, so the
 * first paint never waits for those bytes (issue 14's Lighthouse budget).
 */
export function useAfterFirstPaint(): boolean {
  return useOnceResolved(whenFirstContentPainted);
}

/**
 * False until the first screen has painted and the browser is idle, then true. What only decorates
 * the page or waits to be tapped (the particle background, the customer-service button) renders
 * behind it, so its script competes with the first screen's for neither the link nor the main
 * thread (issue 14's Lighthouse budget).
 */
export function useAfterFirstScreen(): boolean {
  return useOnceResolved(whenFirstScreenSettled);
}
