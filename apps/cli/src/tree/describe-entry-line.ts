import { clip, clipPrefix, describeToolCall } from "../format/message-preview";
import type { EntryDescription } from "./describe-entry";
import { JsonLineReader } from "./json-line-reader";

/**
 * Bytes of a long text decoded first, beyond the preview's width (a few escapes, multi-byte characters
 * and whitespace runs); a preview that needs more reads four times as many, and so on.
 */
const EXTRA_TEXT_BYTES = 48;

const ENTRY_FIELDS = ["type", "id", "message"] as const;
const MESSAGE_FIELDS = ["role", "content", "isError", "toolName", "stopReason", "errorMessage"] as const;
const BLOCK_FIELDS = ["type", "text", "name", "arguments"] as const;
const ARGUMENT_FIELDS = ["path", "command", "pattern", "query"] as const;

/** Texts to clip: parts, and whether they are the whole text or only a prefix of it. */
interface Parts {
  parts: string[];
  complete: boolean;
}

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
  private readonly entryFields = ENTRY_FIELDS.map(() => -1);
  private readonly messageFields = MESSAGE_FIELDS.map(() => -1);
  private readonly blockFields = BLOCK_FIELDS.map(() => -1);
  private readonly argumentFields = ARGUMENT_FIELDS.map(() => -1);

  /** See the class. `width`: as for `describeEntry`. */
  describe(line: Uint8Array, id: string, width: number): EntryDescription | undefined {
    return this.reader.read(line, (at) => {
      for (let bytes = width + EXTRA_TEXT_BYTES; ; bytes *= 4) {
        const described = this.describeAt(at, id, width, bytes);
        if (described !== null) return described;
      }
    });
  }

  /** `null`: the texts read (`bytes` each) were too short to decide the preview. */
  private describeAt(
    at: number,
    id: string,
    width: number,
    bytes: number,
  ): EntryDescription | null | undefined {
    const r = this.reader;
    const [type, entryId, message] = r.fields(at, ENTRY_FIELDS, this.entryFields) as [number, number, number];
    if (type < 0 || !r.isString(type, "message") || entryId < 0 || r.kindOf(entryId) !== 0x22)
      return undefined;
    if (r.string(entryId) !== id || message < 0) return undefined;
    const fields = r.fields(message, MESSAGE_FIELDS, this.messageFields) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const [role, content] = fields;
    if (role < 0) return undefined;
    if (r.isString(role, "user")) return this.clipped("user", this.contentParts(content, bytes, []), width);
    if (r.isString(role, "toolResult")) {
      const [, , isError, toolName] = fields;
      const failed = isError < 0 ? false : r.parse(isError);
      if (typeof failed !== "boolean" && failed !== null) return undefined;
      if (toolName < 0) return undefined;
      const head = `${failed ? "✗" : "✓"} ${r.string(toolName)}: `;
      return this.clipped("toolResult", this.contentParts(content, bytes, [head]), width);
    }
    if (r.isString(role, "assistant")) return this.assistant(fields, width, bytes);
    return undefined;
  }

  /** `clip` of the parts when they are the whole text, else when their prefix decides it; else `null`. */
  private clipped(kind: string, text: Parts | undefined, width: number): EntryDescription | null | undefined {
    if (text === undefined) return undefined;
    const clipped = text.complete ? clip(text.parts, width) : clipPrefix(text.parts, width);
    return clipped === undefined ? null : { kind, text: clipped };
  }

  /**
   * The parts of `contentParts` (message-preview) after `head`: a string, or the blocks' texts
   * (`[image]` for an image) between spaces; cut after the first text read only in part.
   */
  private contentParts(content: number, bytes: number, head: string[]): Parts | undefined {
    const r = this.reader;
    if (content < 0) return { parts: head, complete: true };
    const kind = r.kindOf(content);
    if (kind === 0x22) {
      const text = r.text(content, bytes);
      return { parts: [...head, text.text], complete: text.complete };
    }
    if (kind !== 0x5b) return undefined;
    const parts = head;
    const first = parts.length;
    for (const block of r.items(content)) {
      if (parts.length > first) parts.push(" ");
      if (r.kindOf(block) !== 0x7b) return undefined;
      const [type, text] = r.fields(block, BLOCK_FIELDS, this.blockFields) as [number, number];
      if (type >= 0 && r.isString(type, "text")) {
        if (text < 0 || r.kindOf(text) === 0x6e) parts.push("");
        else {
          const read = r.text(text, bytes);
          parts.push(read.text);
          if (!read.complete) return { parts, complete: false };
        }
      } else parts.push(type >= 0 && r.isString(type, "image") ? "[image]" : "");
      if (type >= 0 && r.kindOf(type) !== 0x22) return undefined;
    }
    return { parts, complete: true };
  }

  /** The assistant's preview (see `previewMessage`). */
  private assistant(
    fields: readonly number[],
    width: number,
    bytes: number,
  ): EntryDescription | null | undefined {
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
    const texts: string[] = [];
    let complete = true;
    const calls: string[] = [];
    let thinking = false;
    for (const block of r.items(content)) {
      if (r.kindOf(block) !== 0x7b) return undefined;
      const [type, text, name, args] = r.fields(block, BLOCK_FIELDS, this.blockFields) as [
        number,
        number,
        number,
        number,
      ];
      if (type < 0 || r.kindOf(type) !== 0x22) return undefined;
      if (r.isString(type, "text")) {
        if (!complete) continue;
        if (texts.length > 0) texts.push(" ");
        if (text < 0 || r.kindOf(text) === 0x6e) texts.push("");
        else {
          const read = r.text(text, bytes);
          texts.push(read.text);
          complete = read.complete;
        }
      } else if (r.isString(type, "toolCall")) {
        const call = this.toolCall(name, args, bytes);
        if (call === undefined || call === null) return call;
        calls.push(`→ ${call}`);
      } else if (r.isString(type, "thinking")) thinking = true;
    }
    const text = complete ? clip(texts, width) : clipPrefix(texts, width);
    if (text === undefined) return null;
    let error = "";
    if (stopReason >= 0 && r.isString(stopReason, "error")) {
      if (errorMessage >= 0 && r.kindOf(errorMessage) !== 0x22 && r.kindOf(errorMessage) !== 0x6e)
        return undefined;
      error = `[error: ${errorMessage < 0 || r.kindOf(errorMessage) === 0x6e ? "unknown" : r.string(errorMessage)}] `;
    }
    const aborted = stopReason >= 0 && r.isString(stopReason, "aborted") ? "[aborted] " : "";
    const shown = `${error}${aborted}${thinking ? "(thinking) " : ""}${[text, ...calls].filter(Boolean).join(" ")}`;
    return { kind: "assistant", text: clip(shown, width) };
  }

  /** `describeToolCall(name, args, 40)`; `null`: its argument was read in part and does not decide. */
  private toolCall(name: number, args: number, bytes: number): string | null | undefined {
    const r = this.reader;
    if (name < 0 || r.kindOf(name) !== 0x22 || args < 0 || r.kindOf(args) !== 0x7b) return undefined;
    const tool = r.string(name);
    const values = r.fields(args, ARGUMENT_FIELDS, this.argumentFields);
    const main = values.find((value) => value >= 0 && r.kindOf(value) !== 0x6e);
    if (main === undefined || r.kindOf(main) !== 0x22) {
      return describeToolCall(tool, r.parse(args) as Record<string, unknown>, 40);
    }
    const shown = r.text(main, bytes);
    if (shown.complete) return describeToolCall(tool, { path: shown.text }, 40);
    const clippedTool = clip(tool, 40);
    const clipped = clipPrefix(shown.text, Math.max(8, 40 - clippedTool.length - 2));
    return clipped === undefined ? null : `${clippedTool}(${clipped})`;
  }
}
