import { cataloguePartOf, createLazyMessages } from '@keel/locales/browser';
import { loadErrorMessages } from '@keel/locales/load/error';
import { loadMoreWebMessages, loadWebMessages } from '@keel/locales/load/web';

/**
 * The user app's messages: its own texts (`web.*`) and the error catalogue's (`error.*`), one
 * language at a time; the back-office's texts and the server's notifications are never downloaded.
 * What a visitor sees before logging in comes first; the texts of the pages behind the login come
 * when the first of them opens (router.tsx), so the login screen waits for neither (ADR 0025).
 */
export const webMessages = createLazyMessages([loadWebMessages, loadErrorMessages], {
  loaders: [loadMoreWebMessages],
  holds: (key) => cataloguePartOf(key) === 'more',
});
