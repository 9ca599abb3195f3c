import { describe, expect, it } from "vitest";
import { startSpinner } from "./spinner";

describe("startSpinner", () => {
  it("draws the label, then the elapsed whole seconds, and erases the line on stop", () => {
    let time = 1_000;
    const written: string[] = [];
    const spinner = startSpinner(
      (chunk) => written.push(chunk),
      "Waiting for the model…",
      () => time,
    );
    expect(written.at(-1)).toBe("\r\u001b[2K⠋ Waiting for the model…");
    time += 12_400;
    spinner.update("Running bash…");
    expect(written.at(-1)).toBe("\r\u001b[2K⠙ Running bash… 12s");
    spinner.stop();
    spinner.stop();
    expect(written.slice(-1)).toEqual(["\r\u001b[2K"]);
    expect(written).toHaveLength(3);
  });
});

describe("startSpinner with a delay", () => {
  it("draws nothing, and erases nothing, when stopped before the delay", async () => {
    const written: string[] = [];
    const quick = startSpinner((chunk) => written.push(chunk), "Running read…", Date.now, 50);
    quick.stop();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(written).toEqual([]);
    const slow = startSpinner((chunk) => written.push(chunk), "Running bash…", Date.now, 20);
    await new Promise((resolve) => setTimeout(resolve, 60));
    slow.stop();
    expect(written[0]).toBe("\r\u001b[2K⠋ Running bash…");
    expect(written.at(-1)).toBe("\r\u001b[2K");
  });
});
