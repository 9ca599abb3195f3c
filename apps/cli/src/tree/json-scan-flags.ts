/**
 * Flags the scanner or-s into a string's end in its ends table (see `jsonScanProgram`): the string has
 * an escape; it may hold a byte above 0x7f (without it, it is ASCII). Positions stay below 2^30.
 */
export const jsonScanFlags = { escaped: 1 << 31, wide: 1 << 30 } as const;
