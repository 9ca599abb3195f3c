/**
 * `@arbor/providers/testing`: offline test doubles, published so that extension authors can test
 * without a network. `createScriptedProvider` is an in-process provider for the layers above;
 * `startWireServer` is a local HTTP server that speaks the real wire formats for tests that go
 * through the official SDKs. Nothing here imports a test framework.
 */
export { OVERFLOW_ERROR_BODIES, type OverflowErrorBody } from "./overflow-error-bodies";
export {
  createScriptedProvider,
  type RecordedCall,
  type ScriptedFault,
  type ScriptedProvider,
  type ScriptedResponse,
  type ScriptedStep,
} from "./scripted-provider";
export {
  createTestLlmServer,
  type RecordedRequest,
  startWireServer,
  type TestLlmServer,
  type TestLlmServerOptions,
} from "./test-llm-server";
export {
  contentReply,
  errorReply,
  overflowReply,
  rateLimitReply,
  rawStreamReply,
  serverErrorReply,
  textReply,
  toolCallReply,
} from "./wire-replies";
export type {
  OverflowFlavor,
  WireBlock,
  WireError,
  WireRawStream,
  WireReply,
  WireReplyFunction,
  WireReplySpec,
  WireResponse,
  WireRoute,
  WireUsage,
} from "./wire-reply";
