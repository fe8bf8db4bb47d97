import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogues, readCatalogue } from '@keel/locales';
import { createLazyMessages } from '@keel/locales/browser';
import { loadAdminMessages } from '@keel/locales/load/admin';
import { loadErrorMessages } from '@keel/locales/load/error';
import { describe, expect, it } from 'vitest';

/** Every string literal in the back-office's source that is shaped like a message key. */
function keyLiterals(dir: string): { file: string; key: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/['"`]((?:web|admin|error|notify)\.[\w.]*\w)['"`]/g)].map((match) => ({
        file,
        key: match[1] as string,
      })),
    );
}

describe('the back-office’s messages', () => {
  it('download its own texts and the errors in the staff member’s language', async () => {
    const messages = createLazyMessages([loadAdminMessages, loadErrorMessages]);
    await messages.switchTo('ja');
    expect(messages.t('admin.language')).toBe(readCatalogue('admin', 'ja')['admin.language']);
    expect(messages.tServer('user status incorrect')).toBe(readCatalogue('error', 'ja')['error.USER_STATUS_INCORRECT']);
  });

  it('use only keys the back-office downloads (admin.*, error.*)', () => {
    // tsc checks that every key exists (`t` takes a MessageKey); this checks the app downloads it.
    const english = catalogues.en as Record<string, string>;
    const wrong = keyLiterals(join(import.meta.dirname, '..')).filter(
      ({ key }) => key in english && !(key.startsWith('admin.') || key.startsWith('error.')),
    );
    expect(wrong).toEqual([]);
  });
});
