/** Response headers as a `Headers` object or a plain record (names in any case). */
export type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

/** Reads one header case-insensitively; arrays yield their first value. Never throws. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
