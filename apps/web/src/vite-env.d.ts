/// <reference types="vite/client" />

/** The app package's version, set by vite.config.ts at build time. */
declare const __APP_VERSION__: string;
