import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffReplacement } from "./diff-replacement";

function diffOf(original: string, oldText: string, newText: string): string {
  return diffReplacement({ path: "f.txt", original, index: original.indexOf(oldText), oldText, newText });
}

/** `git apply --check` accepts the diff against the original: it is a real unified diff. */
function applies(original: string, diff: string, expected: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-diff-"));
  try {
    fs.writeFileSync(path.join(dir, "f.txt"), original);
    fs.writeFileSync(path.join(dir, "p.diff"), `${diff}\n`);
    execFileSync("git", ["apply", "p.diff"], { cwd: dir, stdio: "pipe" });
    expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe(expected);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const FILE = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n";

describe("diffReplacement", () => {
  it("shows the changed lines with 3 lines of context and a hunk header", () => {
    const diff = diffOf(FILE, "five", "FIVE\nfive and a half");
    expect(diff).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -2,7 +2,8 @@",
        " two",
        " three",
        " four",
        "-five",
        "+FIVE",
        "+five and a half",
        " six",
        " seven",
        " eight",
      ].join("\n"),
    );
    applies(FILE, diff, FILE.replace("five", "FIVE\nfive and a half"));
  });

  it("keeps only the lines that change when oldText spans unchanged lines", () => {
    const diff = diffOf(FILE, "two\nthree\nfour", "two\n3\nfour");
    expect(diff.split("\n").filter((line) => /^[-+][^-+]/.test(line))).toEqual(["-three", "+3"]);
    applies(FILE, diff, FILE.replace("three", "3"));
  });

  it("handles the start and end of a file, deletions and a missing final newline", () => {
    for (const [original, oldText, newText] of [
      [FILE, "one\n", ""],
      [FILE, "nine\n", "nine\nten\n"],
      ["a\nb", "b", "c"],
      ["a\nb", "b", "b\n"],
      ["a\nb\n", "b\n", "b"],
    ] as const) {
      const expected = original.replace(oldText, newText);
      applies(original, diffOf(original, oldText, newText), expected);
    }
  });
});
