#!/usr/bin/env node
// Adds (or replaces) message keys in all 13 catalogues at once, from one JSON file shaped
// { "some.key": { "en": "…", "de": "…", … every locale … }, … }.
// Usage: node scripts/add-locale-keys.mjs new-keys.json
// It refuses a key that misses a locale or whose {placeholders} differ from English, so the
// catalogue test's rules hold before anything is written. Writers take a lock folder, so two
// people (or two scripts) adding keys at the same moment do not overwrite each other's keys.
import { mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const locales = ['en', 'de', 'es', 'fr', 'fr-pro', 'it', 'it-pro', 'ru', 'zh-Hans', 'zh-Hant', 'ja', 'vi', 'ar'];
const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/locales/catalogues');
const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join();

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/add-locale-keys.mjs <keys.json>');
  process.exit(2);
}
const additions = JSON.parse(readFileSync(file, 'utf8'));
const problems = [];
for (const [key, texts] of Object.entries(additions)) {
  for (const locale of locales) {
    const text = texts[locale];
    if (typeof text !== 'string' || text.trim() === '') problems.push(`${key}: no ${locale} text`);
    else if (holes(text) !== holes(texts.en ?? '')) problems.push(`${key}: ${locale} placeholders differ from English`);
  }
  for (const locale of Object.keys(texts)) if (!locales.includes(locale)) problems.push(`${key}: unknown locale ${locale}`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}

const lock = join(dir, '.writing');
for (let attempt = 0; ; attempt += 1) {
  try {
    mkdirSync(lock);
    break;
  } catch {
    if (attempt > 200) throw new Error(`${lock} stays locked; remove it if no writer is running`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}
try {
  for (const locale of locales) {
    const path = join(dir, `${locale}.json`);
    const catalogue = JSON.parse(readFileSync(path, 'utf8'));
    for (const [key, texts] of Object.entries(additions)) catalogue[key] = texts[locale];
    writeFileSync(`${path}.tmp`, `${JSON.stringify(catalogue, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  }
} finally {
  rmdirSync(lock);
}
console.log(`${Object.keys(additions).length} keys written to ${locales.length} catalogues`);
