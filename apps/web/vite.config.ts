import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { languageChunkOf } from '@keel/locales/chunks';
import { precompiledCatalogues } from '@keel/locales/precompile';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

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
            // A chunk of its own, so the entry imports it first and it runs before any chunk that
            // builds a zod schema (a chunk's imports run before its own code; ADR 0025).
            { name: 'zod-jitless', test: /src[\\/]shared[\\/]zod-jitless\.ts$/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|i18next-icu|intl-messageformat|@formatjs)[\\/]/ },
            { name: languageChunkOf(['web', 'error']) },
          ],
        },
      },
    },
  },
  server: { proxy: { '/home': 'http://localhost:8080', '/ws': { target: 'ws://localhost:8080', ws: true } } },
});
