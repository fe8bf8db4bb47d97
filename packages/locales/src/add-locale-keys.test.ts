import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localeCodes } from '@keel/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// scripts/add-locale-keys.mjs, run as helpers run it, on a copy of the catalogue folders' shape.
const script = new URL('../../../scripts/add-locale-keys.mjs', import.meta.url).pathname;
let dir: string;

function run(keys: Record<string, Record<string, string>>): { ok: boolean; output: string } {
  const file = join(dir, 'keys.json');
  writeFileSync(file, JSON.stringify(keys));
  try {
    const output = execFileSync(process.execPath, [script, file], { env: { ...process.env, KEEL_CATALOGUES_DIR: join(dir, 'catalogues') }, stdio: 'pipe' });
    return { ok: true, output: output.toString() };
  } catch (error) {
    return { ok: false, output: String((error as { stderr: Buffer }).stderr) };
  }
}
const read = (area: string, locale: string) => JSON.parse(readFileSync(join(dir, 'catalogues', area, `${locale}.json`), 'utf8'));
/** The same text in every language but where given. */
const everywhere = (text: string, overrides: Record<string, string> = {}) =>
  Object.fromEntries(localeCodes.map((locale) => [locale, overrides[locale] ?? text]));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-keys-'));
  for (const area of ['web', 'admin']) {
    mkdirSync(join(dir, 'catalogues', area), { recursive: true });
    for (const locale of localeCodes) writeFileSync(join(dir, 'catalogues', area, `${locale}.json`), locale === 'fr-pro' ? '{"web.old": "Ancien"}' : '{}');
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/add-locale-keys.mjs', () => {
  it('writes each key into the folder its first part names', () => {
    expect(run({ 'web.greeting': everywhere('Hi {name}'), 'admin.greeting': everywhere('Hello {name}') }).ok).toBe(true);
    expect(read('web', 'de')).toEqual({ 'web.greeting': 'Hi {name}' });
    expect(read('admin', 'ja')).toEqual({ 'admin.greeting': 'Hello {name}' });
  });

  it('keeps in fr-pro and it-pro only the texts that differ from fr and it', () => {
    const keys = { 'web.old': everywhere('Même'), 'web.formal': everywhere('Salut', { 'fr-pro': 'Bonjour', 'it-pro': 'Salve' }) };
    expect(run(keys).ok).toBe(true);
    expect(read('web', 'fr-pro')).toEqual({ 'web.formal': 'Bonjour' });
    expect(read('web', 'it-pro')).toEqual({ 'web.formal': 'Salve' });
    expect(read('web', 'fr')).toEqual({ 'web.old': 'Même', 'web.formal': 'Salut' });
  });

  it('refuses a key of no known area, a broken message, other arguments than English, or missing plural forms', () => {
    const plural = '{count, plural, one {# item} other {# items}}';
    const problems = run({
      'misc.key': everywhere('x'),
      'web.broken': everywhere('Hello {name', { en: 'Hello {name}' }),
      'web.args': everywhere('Hi {name}', { de: 'Hallo {nom}' }),
      'web.quoted': everywhere('It is {name}', { fr: "C'est l'{name}" }),
      'web.plural': everywhere(plural, { ru: plural, ja: '{count, plural, other {# 件}}', 'zh-Hans': '{count, plural, other {# 个}}', 'zh-Hant': '{count, plural, other {# 個}}', vi: '{count, plural, other {# mục}}' }),
    });
    expect(problems.ok).toBe(false);
    expect(problems.output).toContain('misc.key: a key starts with one of');
    expect(problems.output).toContain('web.broken: de is not a valid ICU message');
    expect(problems.output).toContain('web.args: de {arguments} differ from English');
    expect(problems.output).toContain('web.quoted: fr keeps a brace once formatted');
    expect(problems.output).toContain('web.plural: ru plural {count} has one other; ru needs few many one other');
    expect(problems.output).toContain('web.plural: ar plural {count} has one other');
    expect(read('web', 'en')).toEqual({});
  });
});
