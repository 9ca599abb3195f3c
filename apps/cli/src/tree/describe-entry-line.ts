import { clip, describeToolCall } from "../format/message-preview";
import type { EntryDescription } from "./describe-entry";
import { FlatClip } from "./flat-clip";
import { JsonLineReader } from "./json-line-reader";

const ENTRY_FIELDS = ["type", "id", "message"] as const;
const MESSAGE_FIELDS = ["role", "content", "isError", "toolName", "stopReason", "errorMessage"] as const;
const BLOCK_FIELDS = ["type", "text", "name", "arguments"] as const;
const ARGUMENT_FIELDS = ["path", "command", "pattern", "query"] as const;

/**
 * `describeEntry` of the entry held by a JSON line, read from the line without parsing all of it
 * (see {@link JsonLineReader}): only the fields a tree row shows are decoded, long texts only as far as
 * the preview needs. For the common entries: user, assistant and tool result messages of the usual
 * shape. Anything else, a line that is not well-formed JSON, or a line whose id is not `id` gives
 * `undefined`: read the entry the full way (`SessionStore.getEntry`) and use `describeEntry`, which
 * also reports what is wrong. Where it answers, it answers exactly what `describeEntry` gives for the
 * parsed entry (a test pins this); but it checks only that the line is JSON and the fields it reads,
 * not the entry's whole structure (`arbor check` does that).
 */
export class EntryLineDescriber {
  private readonly reader = new JsonLineReader();
  private readonly flat = new FlatClip(this.reader.scanner);
  private readonly argument = new FlatClip(this.reader.scanner, 1);
  private readonly entryKeys = this.reader.keys(ENTRY_FIELDS);
  private readonly messageKeys = this.reader.keys(MESSAGE_FIELDS);
  private readonly blockKeys = this.reader.keys(BLOCK_FIELDS);
  private readonly argumentKeys = this.reader.keys(ARGUMENT_FIELDS);
  /** Texts are decoded whole (a text could not be flattened on the way: see `FlatClip`). */
  private whole = false;
  /** A text could not be flattened on the way: describe the line again with `whole`. */
  private failed = false;

  /** The id and width of the line being described (fields, so that no closure is made per line). */
  private id = "";
  private width = 0;
  /** Describes the scanned line whose value is at `at` (made once: no closure per line). */
  private readonly describeLine = (at: number): EntryDescription | undefined => {
    this.whole = false;
    this.failed = false;
    const described = this.describeAt(at, this.id, this.width);
    if (!this.failed) return described;
    this.whole = true;
    return this.describeAt(at, this.id, this.width);
  };

  /** See the class. `width`: as for `describeEntry`. */
  describe(line: Uint8Array, id: string, width: number): EntryDescription | undefined {
    this.id = id;
    this.width = width;
    return this.reader.read(line, this.describeLine);
  }

  /** `flat`'s result, noting whether it failed (see `failed`). */
  private resultOf(flat: FlatClip): string {
    if (flat.failed) this.failed = true;
    return flat.result();
  }

  private describeAt(at: number, id: string, width: number): EntryDescription | undefined {
    const r = this.reader;
    const [type, entryId, message] = r.fields(at, this.entryKeys) as [number, number, number];
    if (type < 0 || !r.isString(type, "message") || entryId < 0 || r.kindOf(entryId) !== 0x22)
      return undefined;
    if (r.string(entryId) !== id || message < 0) return undefined;
    const fields = r.fields(message, this.messageKeys) as [number, number, number, number, number, number];
    const [role, content] = fields;
    if (role < 0) return undefined;
    if (r.isString(role, "user")) return this.content("user", content, width, "");
    if (r.isString(role, "toolResult")) {
      const [, , isError, toolName] = fields;
      // In well-formed JSON a value starting with `t`, `f` or `n` is `true`, `false` or `null`.
      const flag = isError < 0 ? 0x66 : r.kindOf(isError);
      if (flag !== 0x74 && flag !== 0x66 && flag !== 0x6e) return undefined;
      const failed = flag === 0x74;
      if (toolName < 0) return undefined;
      return this.content("toolResult", content, width, `${failed ? "✗" : "✓"} ${r.string(toolName)}: `);
    }
    if (r.isString(role, "assistant")) return this.assistant(fields, width);
    return undefined;
  }

  /** Gives `flat` the JSON string at `at`; false when the value is no string. */
  private addText(flat: FlatClip, at: number): boolean {
    const r = this.reader;
    if (r.kindOf(at) !== 0x22) return false;
    flat.addJson(at + 1, r.endOf(at) - 1);
    return true;
  }

  /**
   * `clip` of `head` and the text of message content (see `contentParts` in message-preview): a
   * string, or the blocks' texts (`[image]` for an image) between spaces; blocks are read only until
   * the preview is decided.
   */
  private content(kind: string, content: number, width: number, head: string): EntryDescription | undefined {
    const r = this.reader;
    const flat = this.flat.reset(width, this.whole);
    flat.addString(head);
    if (content < 0) return { kind, text: this.resultOf(flat) };
    const contentKind = r.kindOf(content);
    if (contentKind === 0x22) {
      this.addText(flat, content);
      return { kind, text: this.resultOf(flat) };
    }
    if (contentKind !== 0x5b) return undefined;
    let first = true;
    for (const block of r.items(content)) {
      if (flat.full) break;
      if (!first) flat.addString(" ");
      first = false;
      if (r.kindOf(block) !== 0x7b) return undefined;
      const [type, text] = r.fields(block, this.blockKeys) as [number, number];
      if (type >= 0 && r.isString(type, "text")) {
        if (text >= 0 && r.kindOf(text) !== 0x6e && !this.addText(flat, text)) return undefined;
      } else if (type >= 0 && r.isString(type, "image")) flat.addString("[image]");
      if (type >= 0 && r.kindOf(type) !== 0x22) return undefined;
    }
    return { kind, text: this.resultOf(flat) };
  }

  /** The assistant's preview (see `previewMessage`). */
  private assistant(fields: readonly number[], width: number): EntryDescription | undefined {
    const r = this.reader;
    const [, content, , , stopReason, errorMessage] = fields as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    if (content < 0 || r.kindOf(content) !== 0x5b) return undefined;
    const flat = this.flat.reset(width, this.whole);
    let first = true;
    /** The tool calls, each `→ call`, joined by spaces. */
    let calls = "";
    let thinking = false;
    for (const block of r.items(content)) {
      if (r.kindOf(block) !== 0x7b) return undefined;
      const [type, text, name, args] = r.fields(block, this.blockKeys) as [number, number, number, number];
      if (type < 0 || r.kindOf(type) !== 0x22) return undefined;
      if (r.isString(type, "text")) {
        if (flat.full) continue;
        if (!first) flat.addString(" ");
        first = false;
        if (text >= 0 && r.kindOf(text) !== 0x6e && !this.addText(flat, text)) return undefined;
      } else if (r.isString(type, "toolCall")) {
        const call = this.toolCall(name, args);
        if (call === undefined) return undefined;
        calls = calls ? `${calls} → ${call}` : `→ ${call}`;
      } else if (r.isString(type, "thinking")) thinking = true;
    }
    const text = this.resultOf(flat);
    let error = "";
    if (stopReason >= 0 && r.isString(stopReason, "error")) {
      if (errorMessage >= 0 && r.kindOf(errorMessage) !== 0x22 && r.kindOf(errorMessage) !== 0x6e)
        return undefined;
      error = `[error: ${errorMessage < 0 || r.kindOf(errorMessage) === 0x6e ? "unknown" : r.string(errorMessage)}] `;
    }
    const aborted = stopReason >= 0 && r.isString(stopReason, "aborted") ? "[aborted] " : "";
    // The text and the calls joined by spaces, empty ones left out.
    const body = text && calls ? `${text} ${calls}` : text || calls;
    const shown = `${error}${aborted}${thinking ? "(thinking) " : ""}${body}`;
    if (error) return { kind: "assistant", text: clip(shown, width) };
    // Without an error message, every piece is already flat (made by `clip` or `FlatClip`) and they
    // are joined by single spaces: flattening only trims the space a marker leaves at the end.
    const line = shown.trimEnd();
    return {
      kind: "assistant",
      text: line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`,
    };
  }

  /** `describeToolCall(name, args, 40)`, its argument read only as far as the preview needs. */
  private toolCall(name: number, args: number): string | undefined {
    const r = this.reader;
    if (name < 0 || r.kindOf(name) !== 0x22 || args < 0 || r.kindOf(args) !== 0x7b) return undefined;
    const tool = r.string(name);
    const values = r.fields(args, this.argumentKeys);
    const main = values.find((value) => value >= 0 && r.kindOf(value) !== 0x6e);
    if (main === undefined || r.kindOf(main) !== 0x22) {
      return describeToolCall(tool, r.parse(args) as Record<string, unknown>, 40);
    }
    const clippedTool = clip(tool, 40);
    const shown = this.argument.reset(Math.max(8, 40 - clippedTool.length - 2), this.whole);
    this.addText(shown, main);
    return `${clippedTool}(${this.resultOf(shown)})`;
  }
}
