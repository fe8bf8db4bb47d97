import react from '@vitejs/plugin-react';
import { languageChunkOf } from '@keel/locales/chunks';
import { precompiledCatalogues } from '@keel/locales/precompile';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  // Catalogues parsed at build time, so no ICU parser is downloaded. Every text file also as .br
  // and .gz, served per Accept-Encoding (ADR 0025).
  plugins: [precompiledCatalogues(), react(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
  // manifest: the chunk graph bench/bundle.bench.ts measures the initial JS by.
  build: {
    outDir: 'dist',
    assetsDir: '_app',
    emptyOutDir: true,
    manifest: true,
    // Each language's texts (admin.* and error.*) are one chunk, downloaded only for the language shown (ADR 0024).
    // zod-jitless.ts is a chunk of its own, so the entry imports it first and it runs before any
    // chunk that builds a zod schema (a chunk's imports run before its own code; ADR 0025).
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'zod-jitless', test: /src[\\/]shared[\\/]zod-jitless\.ts$/ }, { name: languageChunkOf(['admin', 'error']) }] },
      },
    },
  },
  server: { proxy: { '/home': 'http://localhost:8080' } },
});
