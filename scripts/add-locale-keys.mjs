#!/usr/bin/env node
// Adds (or replaces) message keys in all 13 catalogues at once, from one JSON file shaped
// { "some.key": { "en": "…", "de": "…", … every locale … }, … }.
// Usage: node scripts/add-locale-keys.mjs new-keys.json
// Keys live by their first part: `web.x` in catalogues/web/<locale>.json, `admin.x` in
// catalogues/admin/, `error.x` in catalogues/error/, `notify.x` in catalogues/notify/ (each app
// loads only its areas; ADR 0024). fr-pro and it-pro keep only the texts that differ from fr and
// it: a formal text equal to the plain one is not written (and an old one is removed).
// It refuses a key that misses a locale, is not a valid ICU message (or quotes an argument away),
// names other {arguments} than English or lacks a plural category its language needs, so the
// catalogue tests' rules hold before anything is written. Writers take a lock folder, so two people (or two scripts) adding keys at
// the same moment do not overwrite each other's keys.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSample, messageArguments, pluralCategoriesOf, pluralsOf } from '../packages/locales/src/icu-arguments.mjs';

const locales = ['en', 'de', 'es', 'fr', 'fr-pro', 'it', 'it-pro', 'ru', 'zh-Hans', 'zh-Hant', 'ja', 'vi', 'ar'];
/** The formal variants and the language whose texts they fall back to, key by key. */
const formalBase = { 'fr-pro': 'fr', 'it-pro': 'it' };
// KEEL_CATALOGUES_DIR: another folder of the same shape (the script's own test writes to a copy).
const dir = process.env.KEEL_CATALOGUES_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../packages/locales/catalogues');
const areas = readdirSync(dir).filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory());

function problemsOf(key, locale, text, english) {
  if (typeof text !== 'string' || text.trim() === '') return [`${key}: no ${locale} text`];
  let names;
  try {
    names = messageArguments(text);
  } catch (error) {
    return [`${key}: ${locale} is not a valid ICU message (${error.message})`];
  }
  const problems = [];
  if (/[{}]/.test(formatSample(text, locale))) problems.push(`${key}: ${locale} keeps a brace once formatted (an apostrophe before { quotes it: write ’ or '')`);
  try {
    if (names.join() !== messageArguments(english ?? '').join()) problems.push(`${key}: ${locale} {arguments} differ from English`);
  } catch {
    // English's own problem is reported under en.
  }
  const needed = pluralCategoriesOf(locale).join();
  for (const plural of pluralsOf(text)) {
    if (plural.categories.join() !== needed) {
      problems.push(`${key}: ${locale} plural {${plural.argument}} has ${plural.categories.join(' ')}; ${locale} needs ${needed.replaceAll(',', ' ')}`);
    }
  }
  return problems;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/add-locale-keys.mjs <keys.json>');
  process.exit(2);
}
const additions = JSON.parse(readFileSync(file, 'utf8'));
const problems = [];
for (const [key, texts] of Object.entries(additions)) {
  const area = key.split('.')[0];
  if (!areas.includes(area)) problems.push(`${key}: a key starts with one of ${areas.map((each) => `${each}.`).join(' ')}`);
  for (const locale of locales) problems.push(...problemsOf(key, locale, texts[locale], texts.en));
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
  for (const area of areas) {
    const keys = Object.keys(additions).filter((key) => key.split('.')[0] === area);
    if (keys.length === 0) continue;
    for (const locale of locales) {
      const path = join(dir, area, `${locale}.json`);
      const catalogue = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
      for (const key of keys) {
        const base = formalBase[locale];
        if (base && additions[key][locale] === additions[key][base]) delete catalogue[key];
        else catalogue[key] = additions[key][locale];
      }
      writeFileSync(`${path}.tmp`, `${JSON.stringify(catalogue, null, 2)}\n`);
      renameSync(`${path}.tmp`, path);
    }
  }
} finally {
  rmdirSync(lock);
}
console.log(`${Object.keys(additions).length} keys written to ${locales.length} catalogues`);
