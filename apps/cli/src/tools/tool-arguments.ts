import os from "node:os";
import path from "node:path";

/** Reads a required string argument or throws an error naming the tool and the argument. */
export function requireString(tool: string, args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== "string") {
    throw new Error(`${tool}: argument "${key}" must be a string`);
  }
  return value;
}

/** Reads an optional positive integer argument (numbers given as strings are accepted). */
export function optionalPositiveInteger(
  tool: string,
  args: Record<string, unknown>,
  key: string,
): number | undefined {
  const raw = args[key];
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${tool}: argument "${key}" must be a positive number, got ${JSON.stringify(raw)}`);
  }
  return Math.floor(value);
}

/** Resolves a tool path against the working folder; `~` and `~/…` expand to the home folder. */
export function resolveToolPath(cwd: string, filePath: string): string {
  if (filePath === "~") return os.homedir();
  if (filePath.startsWith("~/")) return path.join(os.homedir(), filePath.slice(2));
  return path.resolve(cwd, filePath);
}
