import { describe, expect, it } from "vitest";
import { FailureLog, provenCommandParts } from "./failure-log";

describe("provenCommandParts", () => {
  it("splits && chains, keeps the last command after ;, and ignores || pieces", () => {
    expect(provenCommandParts("npm test &&  npx tsc --noEmit")).toEqual(["npm test", "npx tsc --noEmit"]);
    expect(provenCommandParts("cd app; npm test && a || b")).toEqual(["npm test"]);
  });
});

describe("FailureLog", () => {
  it("resolves a tool failure by a later success on the same target only", () => {
    const log = new FailureLog();
    log.toolFailed("read", "a.ts", "ENOENT");
    log.toolSucceeded("read", "b.ts");
    expect(log.unresolved().map((failure) => failure.text)).toEqual(["`read` `a.ts` failed: ENOENT"]);
    log.toolSucceeded("read", "a.ts");
    expect(log.unresolved()).toEqual([]);
    expect(log.resolved().map((failure) => failure.label)).toEqual(["`read` `a.ts`"]);
  });

  it("does not resolve a success that happened before the failure", () => {
    const log = new FailureLog();
    log.toolSucceeded("bash", "npm test");
    log.toolFailed("bash", "npm test", "1 failing");
    expect(log.unresolved()).toHaveLength(1);
  });

  it("resolves tools of one group together", () => {
    const log = new FailureLog((tool) => (tool === "edit" || tool === "write" ? "change" : tool));
    log.toolFailed("edit", "src/a.ts", "oldText not found");
    log.toolSucceeded("write", "src/a.ts");
    expect(log.unresolved()).toEqual([]);
  });

  it("resolves model errors and aborts by any later response, not by tool successes", () => {
    const log = new FailureLog();
    log.modelFailed("overloaded_error: Overloaded (529)");
    log.modelAborted(undefined);
    log.toolSucceeded("bash", "ls");
    expect(log.unresolved().map((failure) => failure.kind)).toEqual(["model", "aborted"]);
    log.modelSucceeded();
    expect(log.unresolved()).toEqual([]);
  });

  it("understands carried-over Blocked lines it wrote, and keeps other lines unresolved", () => {
    const log = new FailureLog();
    log.carryOver("`bash` `npm test && npx tsc` failed: exit code 1; Error: x");
    log.carryOver("The model request failed: 529");
    log.carryOver("Waiting for the API key from ops");
    log.toolSucceeded("bash", "npm test");
    log.toolSucceeded("bash", "npx tsc");
    log.modelSucceeded();
    expect(log.unresolved().map((failure) => failure.text)).toEqual(["Waiting for the API key from ops"]);
  });
});
