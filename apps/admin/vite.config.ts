import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  plugins: [react()],
  build: { outDir: 'dist', assetsDir: '_app', emptyOutDir: true },
  server: { proxy: { '/home': 'http://localhost:8080' } },
});
