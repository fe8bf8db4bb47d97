// Build-time code (vite.config.ts), not part of the app.

/**
 * The first circle of static imports among the built chunks (file → the files it imports), as
 * the list of files around it ending where it started, or null when there is none. In a circle the
 * browser runs one chunk before what it imports from the other exists.
 */
export function findChunkImportCycle(imports: ReadonlyMap<string, readonly string[]>): string[] | null {
  const done = new Set<string>();
  const visit = (file: string, path: readonly string[]): string[] | null => {
    const seenAt = path.indexOf(file);
    if (seenAt >= 0) return [...path.slice(seenAt), file];
    if (done.has(file)) return null;
    for (const imported of imports.get(file) ?? []) {
      const cycle = visit(imported, [...path, file]);
      if (cycle) return cycle;
    }
    done.add(file);
    return null;
  };
  for (const file of imports.keys()) {
    const cycle = visit(file, []);
    if (cycle) return cycle;
  }
  return null;
}
