import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Built files go under /_app/ so no file path can shadow a client route such as /assets/recharge.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  // The version shown on the "Mine" page is the app package's version, fixed at build time.
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir: 'dist',
    assetsDir: '_app',
    emptyOutDir: true,
    // Libraries and the 13 catalogues change less often than the app: separate files cache longer.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'locales', test: /packages[\\/]locales[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/home': 'http://localhost:8080', '/ws': { target: 'ws://localhost:8080', ws: true } } },
});
