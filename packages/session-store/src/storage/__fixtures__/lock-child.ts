// Child process for the lock tests: takes the writer lock of a session and reports what happened.
// Usage: node --import tsx lock-child.ts <session path> <hold|try>
import { createJsonlStorage } from "../create-jsonl-storage";

const [path, mode] = process.argv.slice(2) as [string, string];
try {
  const storage = createJsonlStorage(path);
  storage.load();
  if (mode === "hold") {
    process.stdout.write(`${JSON.stringify({ held: true, pid: process.pid })}\n`);
    setInterval(() => {}, 1000); // keep the lock until killed
  } else {
    storage.close();
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  }
} catch (error) {
  const e = error as { code?: string; message?: string; holder?: { pid: number } };
  process.stdout.write(`${JSON.stringify({ code: e.code, message: e.message, holderPid: e.holder?.pid })}\n`);
}
