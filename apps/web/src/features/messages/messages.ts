/** The largest id among messages (ids are decimal strings of growing integers), or null for none. */
export function newestId(items: readonly { id: string }[]): string | null {
  let newest: bigint | null = null;
  for (const item of items) {
    if (!/^\d{1,19}$/.test(item.id)) continue;
    const id = BigInt(item.id);
    if (newest === null || id > newest) newest = id;
  }
  return newest === null ? null : newest.toString();
}
