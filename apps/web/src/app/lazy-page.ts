import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/**
 * A route whose screen is its own chunk, fetched the first time the route matches (react-router
 * waits for it before it shows the route, so a navigation keeps the old screen until then):
 * `lazy: lazyPage(() => import('../routes/mobile/login/LoginPage.tsx'), 'LoginPage')`. Every
 * feature area beyond the shell is loaded this way (issue 14's budget: the first screen's script
 * is the shell, React and one language).
 */
export function lazyPage<M>(load: () => Promise<M>, name: keyof M & string): RouteObject['lazy'] {
  return { Component: async () => (await load())[name] as ComponentType };
}
