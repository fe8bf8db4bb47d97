import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// ADR 0023: whatever ends a user's sessions, or changes whether the user may use them, tells the
// live connections on every node (`announceSessionsEnded`, after its commit). The gateway's periodic
// check would catch a path that forgets, but only within a minute: this keeps new paths honest.

const serverSource = join(import.meta.dirname, '..');

/** Statements that end user sessions or change a user's status. */
const endsSessions = [/UPDATE sessions SET ended_at/i, /endSession\(deps, 'sessions'/, /UPDATE users SET status/i];

describe('code that ends user sessions', () => {
  it('announces it to the live connections in the same file', () => {
    const files = readdirSync(serverSource, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      .map((entry) => join(entry.parentPath, entry.name));
    const silent = files.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return endsSessions.some((pattern) => pattern.test(text)) && !text.includes('announceSessionsEnded(');
    });
    expect(silent.map((file) => relative(serverSource, file))).toEqual([]);
    // The patterns still find the known paths (a renamed statement would make this test pass vacuously).
    const found = files.filter((file) => endsSessions.some((pattern) => pattern.test(readFileSync(file, 'utf8'))));
    expect(found.length).toBeGreaterThanOrEqual(5);
  });
});
