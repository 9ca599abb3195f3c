import type { RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import type { MaskEdit } from "./plan-mask-edits";

/**
 * Writes planned masks as context edits, in order. The one place the policies write to the
 * session: today through `api.session.appendContextEdit` from a `turn_end` handler (the next
 * request already sees them), later as entry drafts of the boundary hooks.
 * @throws SessionStoreError when a target is not editable (the bus reports it as a hook error).
 */
export async function applyContextEdits(api: RuntimeExtensionApi, edits: readonly MaskEdit[]): Promise<void> {
  for (const edit of edits) await api.session.appendContextEdit(edit.targetId, edit.replacement);
}
