import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// ADR 0023: `userDisplayName` shows a user's own e-mail or phone in full, so it may only name the
// logged-in user to themselves. The server and the back-office name other people with
// `publicUserName` (or show contacts as the staff member's roles read them).

const root = join(import.meta.dirname, '../../../..');

/** Where naming the user to themselves is the point: the web app's own screens and the user's authenticator label. */
const ownNameUses = new Set(['apps/server/src/use-cases/user/two-step-login.ts']);

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe('userDisplayName', () => {
  it('is used by the server and the back-office only where a user is named to themselves', () => {
    const uses = [...sourceFiles('apps/server/src'), ...sourceFiles('apps/admin/src')].filter(
      (file) => !ownNameUses.has(file) && /\buserDisplayName\b/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(uses).toEqual([]);
  });
});
