export * from './errors/catalogue.ts';
export * from './http/index.ts';
export * from './client.ts';
export * from './i18n/locales.ts';
