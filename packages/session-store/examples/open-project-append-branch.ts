// Only the session store: open a pi session file, project what the model sees, append, branch.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSessionStore } from "@arbor/session-store";

// Work on a copy of a pi session file (pi and Arbor files of versions 1-3 open the same way).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-example-"));
const file = path.join(dir, "session.jsonl");
fs.copyFileSync(new URL("./pi-session.jsonl", import.meta.url), file);

const store = openSessionStore(file); // takes the writer lock
const projection = store.getProjection(); // what the model sees on the current branch
assert.equal(projection.messages.length, 2);
assert.deepEqual(projection.model, { provider: "anthropic", modelId: "claude-sonnet-4-6" });

// Append a message: it is on disk (fsync per the durability mode) when appendMessage returns.
const question = store.appendMessage({
  role: "user",
  content: "Also sort by due date.",
  timestamp: Date.now(),
});
assert.equal(store.getProjection().messages.length, 3);

// Branch: go back to the first answer (entry a0000003 in the file) and ask something else instead.
// Nothing is deleted: the question above stays in the tree, on its own branch.
store.branch("a0000003");
store.appendMessage({ role: "user", content: "Use cursor pagination instead.", timestamp: Date.now() });
assert.equal(store.getProjection().messages.length, 3);
assert.equal(store.getEntry(question.id)?.id, question.id); // the other branch is still there
store.close();

// Any program (pi included) can reopen the file: both branches are in the tree.
const again = openSessionStore(file, { storage: { readOnly: true } });
const [root] = again.getTree();
assert.equal(root?.entry.id, "a0000001");
assert.equal(again.getEntryCount(), 5);
again.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log("session-store example: ok");
