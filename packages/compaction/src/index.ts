export type {
  BranchSummaryEntries,
  BranchSummarySessionView,
} from "./branch/collect-entries-for-branch-summary";
export { collectEntriesForBranchSummary } from "./branch/collect-entries-for-branch-summary";
export type { PrepareBranchEntriesOptions, PreparedBranchEntries } from "./branch/prepare-branch-entries";
export { prepareBranchEntries } from "./branch/prepare-branch-entries";
export type { CompactionErrorCode } from "./compaction-error";
export { CompactionError } from "./compaction-error";
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
