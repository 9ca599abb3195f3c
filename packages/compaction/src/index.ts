export type {
  BranchSummaryEntries,
  BranchSummarySessionView,
} from "./branch/collect-entries-for-branch-summary";
export { collectEntriesForBranchSummary } from "./branch/collect-entries-for-branch-summary";
export type { BranchSummaryOptions, BranchSummaryResult } from "./branch/generate-branch-summary";
export { EMPTY_BRANCH_SUMMARY, generateBranchSummary } from "./branch/generate-branch-summary";
export type { PrepareBranchEntriesOptions, PreparedBranchEntries } from "./branch/prepare-branch-entries";
export { prepareBranchEntries } from "./branch/prepare-branch-entries";
export type { CompactionErrorCode } from "./compaction-error";
export { CompactionError } from "./compaction-error";
export type {
  BranchCompactorCallOptions,
  Compactor,
  CompactorCallOptions,
  DefaultCompactorOptions,
} from "./compactor";
export { createDefaultCompactor } from "./compactor";
export type { CutPointResult, FindCutPointOptions } from "./cut-point/find-cut-point";
export { findCutPoint, findTurnStartIndex } from "./cut-point/find-cut-point";
export type {
  FileLists,
  FileOperationKind,
  FileOperations,
  FileToolMapping,
  FileToolRule,
} from "./files/file-operations";
export {
  computeFileLists,
  createFileOps,
  DEFAULT_FILE_TOOL_MAPPING,
  extractFileOpsFromMessage,
  formatFileOperations,
} from "./files/file-operations";
export type { OfflineSummarySource, SummarizeOfflineOptions } from "./offline/summarize-offline";
export { summarizeOffline } from "./offline/summarize-offline";
export type { ProjectedCutPoint } from "./prepare/find-projected-cut-point";
export { findProjectedCutPoint } from "./prepare/find-projected-cut-point";
export type { CompactionPreparation, PrepareCompactionOptions } from "./prepare/prepare-compaction";
export { prepareCompaction } from "./prepare/prepare-compaction";
export type { SerializeConversationOptions } from "./serialize/serialize-conversation";
export { serializeConversation, TOOL_RESULT_MAX_CHARS } from "./serialize/serialize-conversation";
export type {
  CompactionModelRef,
  CompactionSettings,
  CompactionSettingsInput,
  CompactionTokenOverrides,
} from "./settings/compaction-settings";
export {
  DEFAULT_COMPACTION_SETTINGS,
  resolveCompactionSettings,
  shouldCompact,
} from "./settings/compaction-settings";
export { CompactionSettingsError } from "./settings/compaction-settings-error";
export type {
  CacheSharingSummaryRequest,
  SummaryConversation,
} from "./summary/cache-sharing-summary-request";
export { cacheSharingSummaryRequest } from "./summary/cache-sharing-summary-request";
export type { CompactionResult, CompactOptions } from "./summary/compact";
export { compact } from "./summary/compact";
export type { GeneratedSummary, GenerateSummaryOptions } from "./summary/generate-summary";
export { generateSummary, generateTurnPrefixSummary } from "./summary/generate-summary";
export { fitSummaryMaxTokens } from "./summary/request-summary";
export type { SummaryModelOptions } from "./summary/summary-model-options";
export {
  BRANCH_SUMMARY_PREAMBLE,
  BRANCH_SUMMARY_PROMPT,
  CACHE_SHARING_SUMMARY_PROMPT,
  INITIAL_SUMMARY_PROMPT,
  SPLIT_TURN_SEPARATOR,
  SUMMARY_SYSTEM_PROMPT,
  TURN_PREFIX_SUMMARY_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from "./summary/summary-prompts";
export { calculateContextTokens } from "./tokens/calculate-context-tokens";
export type {
  CalibratedEstimator,
  CalibratedEstimatorOptions,
  CalibrationSample,
  CalibrationState,
} from "./tokens/create-calibrated-estimator";
export { calibrationKey, createCalibratedEstimator } from "./tokens/create-calibrated-estimator";
export type { ContextTokenEstimate, EstimateOptions } from "./tokens/estimate-context-tokens";
export { estimateContextTokens } from "./tokens/estimate-context-tokens";
export { estimateProjectedContextTokens } from "./tokens/estimate-projected-context-tokens";
export { ESTIMATED_IMAGE_CHARS, estimateTokens } from "./tokens/estimate-tokens";
export type { TokenCounter } from "./tokens/token-counter";
export { defaultTokenCounter } from "./tokens/token-counter";
