#!/usr/bin/env node
/**
 * API reports: the public surface of every entry point of every public package, as API Extractor
 * sees it in the built `.d.ts`, committed under `packages/<name>/api/<entry>.api.md`.
 *
 *   pnpm api:check    (CI) fails when a report differs from the built surface
 *   pnpm api:update   rewrites the reports; commit them with the change that moved the surface
 *
 * Both need `pnpm build` first. A change to a report is a change to what users can import: review it
 * like code (and add a changeset).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const update = process.argv.includes("--update");
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-api-"));
const changed = [];
const problems = [];

function reportName(subpath) {
  return subpath === "." ? "index" : subpath.slice(2).replaceAll("/", "-");
}

for (const dir of fs.readdirSync(path.join(repoRoot, "packages")).sort()) {
  const packageFolder = path.join(repoRoot, "packages", dir);
  const manifestPath = path.join(packageFolder, "package.json");
  if (!fs.existsSync(manifestPath)) continue;
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
  if (manifest.private) continue;
  const reportFolder = path.join(packageFolder, "api");
  fs.mkdirSync(reportFolder, { recursive: true });
  const expected = new Set();
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== "object" || !target.types) continue;
    const name = reportName(subpath);
    const reportFileName = `${name}.api.md`;
    expected.add(reportFileName);
    const entry = path.join(packageFolder, target.types);
    if (!fs.existsSync(entry)) {
      problems.push(`${manifest.name}${subpath.slice(1)}: ${target.types} is missing; run pnpm build first`);
      continue;
    }
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: packageFolder,
        mainEntryPointFilePath: entry,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: "ES2022",
              module: "ESNext",
              moduleResolution: "Bundler",
              lib: ["ES2023"],
              types: ["node"],
              strict: true,
              skipLibCheck: true,
            },
            include: [entry],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName,
          reportFolder,
          reportTempFolder: temp,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: "warning" } },
          extractorMessageReporting: {
            default: { logLevel: "none" },
            "ae-missing-release-tag": { logLevel: "none" },
            "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
          },
          tsdocMessageReporting: { default: { logLevel: "none" } },
        },
      },
      configObjectFullPath: path.join(packageFolder, "api-extractor.json"),
      packageJsonFullPath: manifestPath,
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message) => {
        const fromConsole = String(message.messageId).startsWith("console-");
        if (!fromConsole && (message.logLevel === "warning" || message.logLevel === "error")) {
          problems.push(`${manifest.name}${subpath.slice(1)}: ${message.text}`);
        }
        message.handled = true;
      },
    });
    if (result.apiReportChanged) changed.push(`packages/${dir}/api/${reportFileName}`);
  }
  for (const file of fs.readdirSync(reportFolder)) {
    if (file.endsWith(".api.md") && !expected.has(file)) {
      if (update) fs.rmSync(path.join(reportFolder, file));
      else changed.push(`packages/${dir}/api/${file} (no such entry point any more)`);
    }
  }
}
fs.rmSync(temp, { recursive: true, force: true });

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
if (changed.length === 0) {
  console.log("api reports: the public surface of every entry point matches its committed report");
} else if (update) {
  console.log(`api reports updated (commit them):\n- ${changed.join("\n- ")}`);
} else {
  console.error(`The public API changed, but its report was not updated:\n- ${changed.join("\n- ")}`);
  console.error(
    "\nIf the change is intended, run `pnpm build && pnpm api:update` and commit the reports (review the diff: it is what users can import).",
  );
  process.exit(1);
}
