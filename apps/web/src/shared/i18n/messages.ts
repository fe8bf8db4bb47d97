import { cataloguePartOf, createLazyMessages } from '@keel/locales/browser';
import { loadErrorMessages } from '@keel/locales/load/error';
import { loadMoreWebMessages, loadTabWebMessages, loadWebMessages } from '@keel/locales/load/web';

/**
 * The user app's messages: its own texts (`web.*`) and the error catalogue's (`error.*`), one
 * language at a time; the back-office's texts and the server's notifications are never downloaded.
 * What a visitor sees before logging in comes first; the tabs' texts come when the first tab opens,
 * the rest of the texts behind the login when the first other page there opens (router.tsx), so
 * the login screen waits for neither and a tab for none of the feature pages' texts (ADR 0025).
 */
export const webMessages = createLazyMessages(
  [loadWebMessages, loadErrorMessages],
  [
    { name: 'tabs', loaders: [loadTabWebMessages], holds: (key) => cataloguePartOf(key) === 'tabs' },
    { name: 'more', loaders: [loadMoreWebMessages], holds: (key) => cataloguePartOf(key) === 'more' },
  ],
);
