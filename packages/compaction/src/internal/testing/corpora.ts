/** Deterministic text corpora for token-count tests. */
import type { AgentMessage } from "@arbor/agent-loop";
import { assistant, toolCall, toolResult, user } from "./messages";

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A JSON directory listing like the ones tools return (half pretty-printed). */
export function jsonListing(seed: number, files: number): string {
  const random = seeded(seed);
  const entries = Array.from({ length: files }, (_, index) => ({
    name: `module_${Math.floor(random() * 1e6).toString(36)}_${index}.ts`,
    size: Math.floor(random() * 90000),
    mode: random() > 0.5 ? "rw-r--r--" : "rwxr-xr-x",
    modified: new Date(1_700_000_000_000 + Math.floor(random() * 1e10)).toISOString(),
    isDirectory: random() > 0.8,
  }));
  return seed % 2 === 0 ? JSON.stringify(entries, null, 2) : JSON.stringify(entries);
}

const CHINESE = [
  "会话以树形结构保存，每条记录都有自己的编号和父节点编号。",
  "压缩检查点用摘要代替较早的历史，同时保留最近的消息。",
  "当上下文接近模型窗口上限时，系统会自动生成结构化摘要。",
  "工具调用的结果通常是上下文中最大的部分，因此序列化时会被截断。",
  "用户离开一个分支时，可以为该分支生成摘要，以免丢失已经完成的工作。",
  "文件操作会在多次压缩之间累积记录，包括读取和修改过的文件。",
];

/** Chinese prose (about 95% CJK characters). */
export function chineseText(seed: number, sentences: number): string {
  const random = seeded(seed);
  return Array.from({ length: sentences }, () => CHINESE[Math.floor(random() * CHINESE.length)]).join("");
}

/** One agent turn: a request, a tool call, its (large) result and an answer. */
export function turnMessages(
  index: number,
  resultText: string,
  requestText = `Please inspect part ${index}.`,
): AgentMessage[] {
  return [
    user(requestText),
    assistant([toolCall(`c${index}`, "ls", { path: `dir${index}` })], { stopReason: "toolUse" }),
    toolResult(`c${index}`, "ls", resultText),
    assistant(`Part ${index} inspected.`),
  ];
}
