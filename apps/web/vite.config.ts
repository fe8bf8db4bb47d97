import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built files go under /_app/ so no file path can shadow a client route such as /assets/recharge.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', assetsDir: '_app', emptyOutDir: true },
  server: { proxy: { '/home': 'http://localhost:8080' } },
});
