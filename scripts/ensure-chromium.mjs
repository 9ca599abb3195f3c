#!/usr/bin/env node
/**
 * Part of the quick start's first command (`pnpm run main`): makes sure Debian's chromium is at
 * /usr/bin/chromium, which the HTML export tests drive through playwright-core. When it is missing
 * and this process may install system packages (root with apt-get), it installs it; otherwise it
 * says what to run and carries on (only the export browser test needs it).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
const INSTALL = "apt-get update && apt-get install -y chromium";

if (existsSync(CHROMIUM)) process.exit(0);
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
if (!isRoot || !hasAptGet) {
  console.warn(`main: ${CHROMIUM} is missing; the HTML export tests need it: ${INSTALL}`);
  process.exit(0);
}
console.log(`main: installing chromium for the HTML export tests (${INSTALL})`);
const result = spawnSync("sh", ["-c", `${INSTALL} >/dev/null`], { stdio: "inherit" });
if (result.status !== 0 || !existsSync(CHROMIUM)) {
  console.warn(`main: could not install chromium; run it yourself: ${INSTALL}`);
}
