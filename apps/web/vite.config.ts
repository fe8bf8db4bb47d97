import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { languageChunkOf } from '@keel/locales/chunks';
import { precompiledCatalogues } from '@keel/locales/precompile';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Modules of the first script (main.tsx and what it imports), one small chunk without React. Its
 * first module is zod-jitless.ts, so zod's setting is in place before any chunk that builds a
 * schema has even been requested (they are all fetched from this script's body; ADR 0025).
 */
const firstScriptModule = /(src[\\/]main\.tsx|src[\\/]shared[\\/]zod-jitless\.ts|src[\\/]app[\\/](first-screen|pages|trade-path)\.ts|src[\\/]shared[\\/]api[\\/]session-keys\.ts|src[\\/]shared[\\/]i18n[\\/]locale\.ts|contracts[\\/]src[\\/]i18n[\\/]locales\.ts|locales[\\/]src[\\/]load[\\/])/;

/**
 * The shell (app/start.tsx, the router, the layout) and what every page uses: the API client and
 * session, the messages, the common components and icons, the error pages. Shared code only
 * the screens behind the login use (amounts, pagers, uploads, QR codes) goes to `features-shared`.
 */
const shellModule =
  /(apps[\\/]web[\\/]src[\\/](shared[\\/](api[\\/](client|session|redirect|queries)|i18n[\\/](I18nProvider|messages)|ui[\\/](components|icons|toast|useAfterFirstScreen))|routes[\\/]mobile[\\/]error[\\/]ErrorPages|app[\\/](start|router|RootLayout|guards|providers|PageMain|lazy-page|route-prefetch|account-routes|wallet-routes|p2p-routes)|features[\\/]service-fab[\\/]fab-logic)|packages[\\/]ui[\\/]src[\\/](index|query)|packages[\\/]locales[\\/]src[\\/](browser|engine|messages))\./;

// Built files go under /_app/ so no file path can shadow a client route such as /assets/recharge.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // Catalogues parsed at build time, so no ICU parser is downloaded. Every text file also as .br
  // and .gz (best levels: done once per build), served by the server per Accept-Encoding (ADR 0025).
  plugins: [precompiledCatalogues(), react(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
  // The version shown on the "Mine" page is the app package's version, fixed at build time.
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir: 'dist',
    assetsDir: '_app',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph bench/bundle.bench.ts measures the initial JS by.
    manifest: true,
    // Libraries change less often than the app: separate files cache longer. Each language's
    // texts are a chunk of their own, downloaded only for the language shown (ADR 0024).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|@tanstack[\\/]query-core|@tanstack[\\/]react-query)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|i18next-icu|intl-messageformat|@formatjs)[\\/]/ },
            { name: languageChunkOf(['web', 'error']) },
            // The app's own code in a few chunks instead of one per shared module: over HTTP/1.1
            // a browser fetches six files at a time, so twenty files of 1–4 KB cost more round
            // trips than bytes (/index ran 35 scripts before it painted; now 14; ADR 0025). A
            // group takes the modules its members import too, so the order matters: the first
            // script (no React), the shell, then what the forms, the public screens and the
            // screens behind the login share. Contracts have no group of their own: one chunk of
            // them all made every page build every schema at load (190 ms at 4x CPU on /index);
            // they go with the shared code or the screen that uses them.
            { name: 'first-script', test: (id: string) => firstScriptModule.test(id) || /(preload-helper|dynamic-import-helper|rolldown[\\/]runtime)/.test(id) },
            { name: 'shell', test: (id: string) => shellModule.test(id) && !firstScriptModule.test(id) },
            { name: 'forms', test: /(apps[\\/]web[\\/]src[\\/]shared[\\/]forms|node_modules[\\/](react-hook-form|@hookform))[\\/]/ },
            { name: 'auth-shared', minShareCount: 2, test: /apps[\\/]web[\\/]src[\\/](features[\\/]auth[\\/]|shared[\\/]i18n[\\/]LanguageSwitcher)/ },
            { name: 'features-shared', minShareCount: 2, test: /(apps[\\/]web[\\/]src[\\/](features|shared[\\/](realtime|format|ui|api))|packages[\\/](domain|ui)[\\/]src|node_modules[\\/]qrcode-generator)[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/home': 'http://localhost:8080', '/ws': { target: 'ws://localhost:8080', ws: true } } },
});
