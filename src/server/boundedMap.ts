/**
 * Sets `key` in a Map kept to at most `max` entries: a new key pushes out the one inserted
 * first. For caches of what clients send (query texts, Accept headers), which must not grow
 * with it; the entries worth keeping come back often and are soon set again.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
