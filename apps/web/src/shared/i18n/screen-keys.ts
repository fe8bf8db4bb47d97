// Test-time helper (messages.test.ts), not part of the app: the message keys a screen can show,
// read from its source and the app's modules it imports statically.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const keyLiteral = /['"`]((?:web|error)\.[\w.]*\w)['"`]/g;
// Static imports and re-exports of the app's own modules (relative paths); `import(…)` is a later download.
const staticImport = /^\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Every key literal in `entryFiles` and the app modules they import statically, with the file it is in. */
export function keysOfScreens(entryFiles: readonly string[]): { file: string; key: string }[] {
  const seen = new Set<string>();
  const found: { file: string; key: string }[] = [];
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file) || /\.test\.tsx?$/.test(file) || !/\.tsx?$/.test(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(keyLiteral)) found.push({ file, key: match[1]! });
    for (const match of source.matchAll(staticImport)) visit(resolve(dirname(file), match[1]!));
  };
  for (const file of entryFiles) visit(file);
  return found;
}
