import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./parse-cli-args";

function inputOf(args: string[]): unknown {
  const parsed = parseCliArgs(args);
  if (parsed.kind !== "command") throw new Error(`expected a command, got ${parsed.kind}`);
  return parsed.input;
}

function usageMessage(args: string[]): string {
  try {
    parseCliArgs(args);
  } catch (error) {
    expect(error).toMatchObject({ code: "CLI_USAGE", exitCode: 2 });
    return (error as Error).message;
  }
  throw new Error(`${args.join(" ")} was accepted`);
}

describe("parseCliArgs", () => {
  it("parses inspect with every flag, options before or after the file", () => {
    const expected = {
      file: "s.jsonl",
      leafId: "abc",
      keepRecentTokens: 500,
      json: true,
      full: true,
      systemPrompt: undefined,
      appendSystemPrompt: undefined,
      noContextFiles: false,
    };
    expect(
      inputOf(["inspect", "s.jsonl", "--leaf", "abc", "--keep-recent-tokens", "500", "--json", "--full"]),
    ).toEqual(expected);
    expect(
      inputOf(["inspect", "--leaf=abc", "--json", "--full", "--keep-recent-tokens=500", "s.jsonl"]),
    ).toEqual(expected);
  });

  it("parses print mode and the session flags", () => {
    expect(inputOf(["-p", "hello", "--json", "--model", "local-8k", "--no-session"])).toMatchObject({
      kind: "print",
      prompt: "hello",
      json: true,
      model: "local-8k",
      noSession: true,
    });
  });

  it("takes -p without a prompt (read from stdin), also before another flag", () => {
    expect(inputOf(["-p"])).toMatchObject({ kind: "print", prompt: undefined });
    expect(inputOf(["-p", "--json"])).toMatchObject({ kind: "print", prompt: undefined, json: true });
    expect(inputOf(["--print=-v is a flag"])).toMatchObject({ kind: "print", prompt: "-v is a flag" });
  });

  it("defaults to the interactive agent", () => {
    expect(inputOf([])).toMatchObject({ kind: "interactive" });
  });

  it("gives --help of every command, and of the agent", () => {
    for (const name of ["inspect", "tree", "export", "compact", "sessions", "models"]) {
      for (const args of [
        [name, "--help"],
        [name, "-h"],
        [name, "x", "--bogus", "--help"],
        ["help", name],
      ]) {
        const parsed = parseCliArgs(args);
        expect(parsed.kind, args.join(" ")).toBe("help");
        expect(parsed.kind === "help" && parsed.text).toMatch(new RegExp(`^Usage: arbor ${name} `));
      }
    }
    for (const args of [["--help"], ["-h"], ["help"], ["-p", "x", "--help"]]) {
      const parsed = parseCliArgs(args);
      expect(parsed.kind === "help" && parsed.text, args.join(" ")).toContain("arbor inspect <session>");
    }
  });

  it("rejects bad input with one line naming the problem and the help to read", () => {
    const cases: Array<[string[], string]> = [
      [["inspect"], "inspect: missing <session> (arbor inspect <session>) (see arbor inspect --help)"],
      [["inspect", "a", "b"], 'inspect: unexpected argument "b" (see arbor inspect --help)'],
      [
        ["inspect", "a", "--keep-recent-tokens", "-3"],
        'inspect: --keep-recent-tokens needs a value (--keep-recent-tokens N); for a value starting with "-" write --keep-recent-tokens=-3 (see arbor inspect --help)',
      ],
      [
        ["inspect", "a", "--keep-recent-tokens=-3"],
        'inspect: --keep-recent-tokens expects a non-negative integer, got "-3" (see arbor inspect --help)',
      ],
      [["inspect", "a", "--json=yes"], "inspect: --json takes no value (see arbor inspect --help)"],
      [["tree", "a", "--bogus"], "tree: unknown option --bogus (see arbor tree --help)"],
      [["compact", "a", "--model"], "compact: --model needs a value (--model ID) (see arbor compact --help)"],
      [
        ["--session", "x", "--continue"],
        "use only one of --session, --continue, --resume and --no-session (see arbor --help)",
      ],
      [["frobnicate"], 'unknown command "frobnicate" (see arbor --help)'],
      [["-x"], "unknown option -x (see arbor --help)"],
      [["-px"], "unknown option -px (see arbor --help)"],
      [["--json"], '--json needs print mode (arbor -p "prompt" --json) (see arbor --help)'],
      [["-p", ""], '-p needs a prompt: the prompt given is empty (arbor -p "what to do") (see arbor --help)'],
      [
        ["-p", "x", "--resume"],
        "--resume needs the interactive mode; use --continue or --session PATH with -p (see arbor --help)",
      ],
      [
        ["--thinking", "max"],
        '--thinking expects one of off, minimal, low, medium, high, got "max" (see arbor --help)',
      ],
      [["help", "frobnicate"], 'no command "frobnicate" to show help for (see arbor --help)'],
    ];
    for (const [args, message] of cases) expect(usageMessage(args), args.join(" ")).toBe(message);
  });

  it("parses trust, untrust and --trust-project", () => {
    expect(inputOf(["trust"])).toEqual({ trust: "trusted", folder: undefined, list: false });
    expect(inputOf(["untrust", "../x"])).toEqual({ trust: "untrusted", folder: "../x", list: false });
    expect(inputOf(["trust", "--list"])).toMatchObject({ list: true });
    expect(inputOf(["-p", "hi", "--trust-project"])).toMatchObject({ kind: "print", trustProject: true });
    expect(inputOf([])).toMatchObject({ kind: "interactive", trustProject: false });
    expect(usageMessage(["trust", "a", "b"])).toBe('trust: unexpected argument "b" (see arbor trust --help)');
    expect(usageMessage(["untrust", "--list"])).toBe(
      "untrust: unknown option --list (see arbor untrust --help)",
    );
    expect(usageMessage(["trust", "--list", "a"])).toBe(
      "trust: --list takes no folder (see arbor trust --help)",
    );
  });

  it("refuses an empty prompt and a --base-url that is not an http(s) URL", () => {
    for (const prompt of ["   ", "\n"]) {
      expect(usageMessage(["-p", prompt])).toContain("the prompt given is empty");
    }
    for (const url of ["not a url", "localhost:8080", "ftp://h/v1", "file:///etc/passwd", ""]) {
      const message = `--base-url expects an http:// or https:// URL such as http://127.0.0.1:8080/v1, got "${url}"`;
      expect(usageMessage(["-p", "hi", "--base-url", url])).toBe(`${message} (see arbor --help)`);
      expect(usageMessage(["--base-url", url])).toBe(`${message} (see arbor --help)`);
      expect(usageMessage(["compact", "s.jsonl", "--base-url", url])).toBe(
        `compact: ${message} (see arbor compact --help)`,
      );
    }
    expect(inputOf(["-p", "hi", "--base-url", "http://127.0.0.1:1/v1"])).toMatchObject({
      baseUrl: "http://127.0.0.1:1/v1",
    });
  });
});
