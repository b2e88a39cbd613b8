/**
 * Sets `key` in a per-process memo that holds at most `max` entries, dropping the oldest entry first (a Map iterates in
 * insertion order). Returns `value`.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
  return value;
}
