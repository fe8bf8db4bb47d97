import './shared/zod-jitless.ts';
import { startFirstScreenDownloads } from './app/first-screen.ts';
import { applyDocumentLocale, initialLocale } from './shared/i18n/locale.ts';
import './styles/app.css';

// The first script is small and holds no React: it sets the page's language and direction (so an
// Arabic reader never sees the page flip from left-to-right), starts the first screen's texts and
// page chunk, and only then asks for the app itself, so all of them download side by side.
const locale = initialLocale();
applyDocumentLocale(locale);
startFirstScreenDownloads(window.location.pathname, locale);
void import('./app/start.tsx');
