/** `value` with every string in it (object keys too, when `keys`) passed through `map`: arrays and plain objects are copied, the rest kept. */
export function mapStrings<T>(value: T, map: (text: string) => string, keys = false): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map, keys)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [keys ? map(k) : k, mapStrings(v, map, keys)]),
    ) as T;
  return value;
}

/** Every string in `value` (object keys included), in order. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsIn(v, out);
    }
  return out;
}
