const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** "00".."99" and "000".."999": the time fields without number-to-string conversions. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/** The day whose `YYYY-MM-DDT` prefix is cached (UTC days since the epoch). */
let cachedDay = Number.NaN;
let cachedPrefix = "";

/**
 * `new Date(ms).toISOString()`, character for character, for the entry timestamps of every append:
 * the date part (`YYYY-MM-DDT`) comes from `toISOString` once per UTC day, the time of day is put
 * together from integer arithmetic and lookup tables (V8 formats each date through a printf-style
 * formatter, a good part of an append's CPU time).
 *
 * Times outside years 0000-9999 (whose ISO form has a signed six-digit year) and non-integer times
 * are handed to `toISOString` whole. Throws the same `RangeError` as `toISOString` for an invalid
 * time (`NaN`, infinite, or beyond the Date range). Pure apart from its one-day cache.
 */
export function formatTimestamp(ms: number): string {
  // Not an integer: NaN, infinities (toISOString throws), or a fraction a Date would truncate.
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    // Throws for times outside the Date range, as `toISOString` does.
    const midnight = new Date(day * DAY_MS).toISOString();
    if (midnight.length !== 24) return new Date(ms).toISOString();
    cachedPrefix = midnight.slice(0, 11);
    cachedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  rest -= hours * HOUR_MS;
  const minutes = Math.floor(rest / MINUTE_MS);
  rest -= minutes * MINUTE_MS;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${cachedPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}Z`;
}
