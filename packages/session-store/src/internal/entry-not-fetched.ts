/**
 * Thrown by `EntryTable.entry` during a dry scan (`EntryTable.dryScan`) for a loaded entry whose
 * line the storage does not hold yet (`SessionStorage.hasEntry` false): the prefetch fetches it
 * asynchronously and scans again, instead of the storage's blocking fallback. Internal: never
 * escapes the store.
 */
export class EntryNotFetched extends Error {
  constructor(readonly index: number) {
    super(`entry #${index} is not fetched yet`);
    this.name = "EntryNotFetched";
  }
}
