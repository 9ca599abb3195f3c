const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** "00".."99", and "000Z".."999Z": the time fields without number-to-string conversions. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const MILLIS_Z = Array.from({ length: 1000 }, (_, n) => `${String(n).padStart(3, "0")}Z`);

/** The day whose `YYYY-MM-DDT` prefix is cached (UTC days since the epoch). */
let cachedDay = Number.NaN;
let cachedDayPrefix = "";
/** The whole second (ms) whose `YYYY-MM-DDTHH:MM:SS.` prefix is cached: appends come in bursts. */
let cachedSecond = Number.NaN;
let cachedSecondPrefix = "";

/**
 * `new Date(ms).toISOString()`, character for character, for the entry timestamps of every append:
 * the date part (`YYYY-MM-DDT`) comes from calendar arithmetic once per UTC day, the time of day is
 * put together from integer arithmetic and lookup tables once per second (V8 formats each date
 * through a printf-style formatter, a good part of an append's CPU time), the milliseconds from a table.
 *
 * Times outside years 0000-9999 (whose ISO form has a signed six-digit year) and non-integer times
 * are handed to `toISOString` whole. Throws the same `RangeError` as `toISOString` for an invalid
 * time (`NaN`, infinite, or beyond the Date range). Pure apart from its one-day and one-second cache.
 */
export function formatTimestamp(ms: number): string {
  // Not an integer: NaN, infinities (toISOString throws), or a fraction a Date would truncate.
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const millis = ((ms % 1000) + 1000) % 1000;
  const second = ms - millis;
  if (second !== cachedSecond) {
    const prefix = secondPrefix(second);
    if (prefix === undefined) return new Date(ms).toISOString();
    cachedSecondPrefix = prefix;
    cachedSecond = second;
  }
  return cachedSecondPrefix + (MILLIS_Z[millis] as string);
}

/** `YYYY-MM-DDTHH:MM:SS.` of a whole second, or `undefined` outside years 0000-9999. */
function secondPrefix(second: number): string | undefined {
  const day = Math.floor(second / DAY_MS);
  if (day !== cachedDay) {
    const prefix = dayPrefix(day);
    if (prefix === undefined) return undefined;
    cachedDayPrefix = prefix;
    cachedDay = day;
  }
  let rest = second - day * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  rest -= hours * HOUR_MS;
  const minutes = Math.floor(rest / MINUTE_MS);
  rest -= minutes * MINUTE_MS;
  const seconds = rest / 1000;
  return `${cachedDayPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.`;
}

/**
 * `YYYY-MM-DDT` of a UTC day (days since 1970-01-01) from the proleptic Gregorian calendar's
 * arithmetic (eras of 400 years), or `undefined` outside years 0000-9999. A process's first
 * `toISOString` cost 0.2-0.5 ms here (an open that takes the writer lock formats one).
 */
function dayPrefix(day: number): string | undefined {
  const shifted = day + 719_468; // days since 0000-03-01
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return undefined;
  return `${String(year).padStart(4, "0")}-${TWO_DIGITS[month]}-${TWO_DIGITS[dayOfMonth]}T`;
}
