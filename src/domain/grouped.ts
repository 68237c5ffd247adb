/**
 * The items grouped by a key, each group in the items' order and the groups in the order their keys first came:
 * one pass, each item added to its group (not each group copied for every item it gains).
 */
export function groupedBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}
