import type { ImageContent, TextContent, Usage } from "@arbor/providers";

/** Input of {@link SessionStore.appendCompaction}. */
export interface AppendCompactionInput<TDetails = unknown> {
  summary: string;
  /** First entry kept after the summary; `null` keeps nothing (the entry then stores its own id). */
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: TDetails;
  usage?: Usage;
  fromHook?: boolean;
}

/** Input of {@link SessionStore.branchWithSummary}. */
export interface BranchSummaryInput<TDetails = unknown> {
  summary: string;
  details?: TDetails;
  usage?: Usage;
  fromHook?: boolean;
}

/** Input of {@link SessionStore.appendUsage}. */
export interface UsageInput {
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** Input of {@link SessionStore.appendCustomMessageEntry}. */
export interface CustomMessageInput<TDetails = unknown> {
  customType: string;
  content: string | Array<TextContent | ImageContent>;
  display: boolean;
  details?: TDetails;
}
