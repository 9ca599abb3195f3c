import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expect, it } from "vitest";
import { assistant, toolCall, toolResult, user } from "../internal/testing/messages";
import {
  addFileListsFromDetails,
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  formatFileOperations,
} from "./file-operations";

describe("file tracking", () => {
  it("records read / write / edit calls with a path, pi's way", () => {
    const ops = createFileOps();
    extractFileOpsFromMessage(
      assistant([
        toolCall("1", "read", { path: "a.ts" }),
        toolCall("2", "write", { path: "b.ts", content: "x" }),
        toolCall("3", "edit", { path: "a.ts" }),
        toolCall("4", "bash", { command: "cat c.ts" }),
        toolCall("5", "read", { file_path: "ignored.ts" }),
        toolCall("6", "read", { path: "" }),
      ]),
      ops,
    );
    extractFileOpsFromMessage(user("read d.ts"), ops);
    expect(ops).toEqual({ read: new Set(["a.ts"]), written: new Set(["b.ts"]), edited: new Set(["a.ts"]) });
    expect(computeFileLists(ops)).toEqual({ readFiles: [], modifiedFiles: ["a.ts", "b.ts"] });
  });

  it("records calls nested in a tool result", () => {
    const ops = createFileOps();
    const result = {
      ...toolResult("c", "code", "ok"),
      nestedCalls: {
        calls: [{ id: "n", name: "write", arguments: { path: "n.ts" }, status: "ok" }],
        complete: true,
      },
    } as AgentMessage;
    extractFileOpsFromMessage(result, ops);
    expect([...ops.written]).toEqual(["n.ts"]);
  });

  it("follows a custom tool mapping, including several path keys and arrays", () => {
    const ops = createFileOps();
    const mapping = {
      read_file: { kind: "read" as const, pathKeys: ["file_path"] },
      apply_patch: { kind: "edit" as const, pathKeys: ["paths"] },
    };
    extractFileOpsFromMessage(
      assistant([
        toolCall("1", "read_file", { file_path: "x.py" }),
        toolCall("2", "apply_patch", { paths: ["y.py", "z.py", 3] }),
        toolCall("3", "read", { path: "not-mapped.ts" }),
        toolCall("4", "constructor", { path: "proto.ts" }),
      ]),
      ops,
      mapping,
    );
    expect(computeFileLists(ops)).toEqual({ readFiles: ["x.py"], modifiedFiles: ["y.py", "z.py"] });
  });

  it("sorts lists by code unit and keeps a read-then-modified file only as modified", () => {
    const ops = createFileOps();
    for (const path of ["b", "B", "a", "é"]) ops.read.add(path);
    ops.written.add("a");
    expect(computeFileLists(ops)).toEqual({ readFiles: ["B", "b", "é"], modifiedFiles: ["a"] });
  });

  it("formats the tags like pi", () => {
    expect(formatFileOperations(["a.ts"], ["b.ts"])).toBe(
      "\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>",
    );
    expect(formatFileOperations([], ["b.ts"])).toBe("\n\n<modified-files>\nb.ts\n</modified-files>");
    expect(formatFileOperations([], [])).toBe("");
  });

  it("inherits lists from summary details (modified counts as edited)", () => {
    const ops = createFileOps();
    addFileListsFromDetails({ readFiles: ["r.ts"], modifiedFiles: ["m.ts"] }, ops);
    addFileListsFromDetails({ readFiles: "nope" }, ops);
    addFileListsFromDetails(null, ops);
    expect(ops).toEqual({ read: new Set(["r.ts"]), written: new Set(), edited: new Set(["m.ts"]) });
  });
});
