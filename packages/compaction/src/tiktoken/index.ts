export type {
  TiktokenCounter,
  TiktokenCounterOptions,
  TiktokenCounterStats,
  TiktokenEncodingName,
} from "./create-tiktoken-counter";
export { createTiktokenCounter } from "./create-tiktoken-counter";
