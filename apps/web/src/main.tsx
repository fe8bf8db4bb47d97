import './shared/zod-jitless.ts';
import { startFirstScreenDownloads, startFirstScreenReads } from './app/first-screen.ts';
import { applyDocumentLocale, initialLocale } from './shared/i18n/locale.ts';
import './styles/app.css';

// The first script is small and holds no React: it sets the page's language and direction (so an
// Arabic reader never sees the page flip from left-to-right), starts the first screen's texts and
// page chunk, then asks for the app itself and the page's first API reads, so all of them download
// side by side.
const locale = initialLocale();
applyDocumentLocale(locale);
startFirstScreenDownloads(window.location.pathname, locale);
void import('./app/start.tsx');
// The screen's data last: over HTTP/1.1's six connections per server its small answers would
// otherwise hold connections the larger scripts, which the screen waits for longer, need first.
startFirstScreenReads(window.location.pathname);
