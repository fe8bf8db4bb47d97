// Build-time code (vite.config.ts), not part of the app.

/**
 * The chain of static imports (file → the files it imports) that leads from `start` to a chunk
 * `unwanted` says should not be there, as the list of files from `start` to it; null when none is
 * reached. A static import is downloaded and run before the importing chunk runs, so what a screen's
 * chunk reaches this way is what its first render waits for.
 */
export function findUnwantedImport(
  imports: ReadonlyMap<string, readonly string[]>,
  start: string,
  unwanted: (file: string) => boolean,
): string[] | null {
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (unwanted(file)) {
      const chain = [file];
      for (let previous = cameFrom.get(file); previous != null; previous = cameFrom.get(previous)) chain.unshift(previous);
      return chain;
    }
    for (const imported of imports.get(file) ?? []) {
      if (cameFrom.has(imported)) continue;
      cameFrom.set(imported, file);
      queue.push(imported);
    }
  }
  return null;
}
