/**
 * Where the line scanner's WebAssembly functions keep what they share in the module's memory (byte
 * offsets): the scan's nesting stack below `stackEnd` (see `jsonScanProgram`); `flatState`, the four
 * i32 a flatten leaves (see `jsonFlattenProgram`); `fieldsOut`, the positions a field lookup writes (at
 * most `maxKeys`, see `jsonFieldsProgram`); the key tables from `keyTables` to `keyTablesEnd` (16 bytes
 * per key: its length, then its bytes); `flatRegions`, two texts of `regionBytes` each being made by
 * `FlatClip`; and the scanned line from `lineAt` on, its ends table after it.
 */
export const jsonScanMemory = {
  stackEnd: 20480,
  flatState: 20480,
  fieldsOut: 20496,
  maxKeys: 8,
  keyTables: 20528,
  keyTablesEnd: 24576,
  keyBytes: 16,
  flatRegions: [24576, 45056],
  regionBytes: 20480,
  lineAt: 65536,
} as const;
