import { describe, expect, it } from "vitest";
import { mutationScore, summarizeMutationReport } from "./summarize-mutation-report.mjs";

function mutant(id: string, status: string, line: number, column: number, end: number, replacement?: string) {
  return {
    id,
    status,
    mutatorName: "ConditionalExpression",
    replacement,
    location: { start: { line, column }, end: { line, column: end } },
  };
}

describe("summarizeMutationReport", () => {
  it("counts per file, scores detected / (detected + undetected) and lists the undetected mutants in order", () => {
    const report = {
      files: {
        "src/b.ts": {
          source: "const a = 1;\nif (a > 0) run();\n",
          mutants: [
            mutant("3", "NoCoverage", 2, 5, 10, "false"),
            mutant("1", "Killed", 2, 5, 10, "true"),
            mutant("2", "Survived", 1, 11, 12, "0"),
            mutant("4", "Timeout", 2, 12, 17),
            mutant("5", "CompileError", 2, 12, 17),
          ],
        },
        "src/a.ts": { source: "x", mutants: [] },
      },
    };
    const summary = summarizeMutationReport(report);
    expect(Object.keys(summary.files)).toEqual(["src/a.ts", "src/b.ts"]);
    expect(summary.files["src/a.ts"]).toEqual({
      killed: 0,
      timeout: 0,
      survived: 0,
      noCoverage: 0,
      other: 0,
      score: null,
    });
    expect(summary.files["src/b.ts"]).toEqual({
      killed: 1,
      timeout: 1,
      survived: 1,
      noCoverage: 1,
      other: 1,
      score: 50,
    });
    expect(summary.detected).toBe(2);
    expect(summary.undetected).toBe(2);
    expect(summary.score).toBe(50);
    expect(summary.survivors).toEqual([
      {
        file: "src/b.ts",
        line: 1,
        column: 11,
        status: "Survived",
        mutator: "ConditionalExpression",
        original: "1",
        replacement: "0",
      },
      {
        file: "src/b.ts",
        line: 2,
        column: 5,
        status: "NoCoverage",
        mutator: "ConditionalExpression",
        original: "a > 0",
        replacement: "false",
      },
    ]);
  });

  it("rounds the score to one decimal", () => {
    expect(mutationScore(2, 1)).toBe(66.7);
    expect(mutationScore(0, 0)).toBeNull();
    expect(mutationScore(5, 0)).toBe(100);
  });
});
