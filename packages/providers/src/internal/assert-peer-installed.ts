import { createRequire } from "node:module";
import {
  type MissingPeerDependencyDetails,
  MissingPeerDependencyError,
} from "../errors/missing-peer-dependency-error";

/**
 * Throws {@link MissingPeerDependencyError} when `details.packageName` cannot be resolved from this
 * package (synchronous, imports nothing). Any other resolution outcome counts as installed.
 */
export function assertPeerInstalled(details: Omit<MissingPeerDependencyDetails, "cause">): void {
  try {
    createRequire(import.meta.url).resolve(details.packageName);
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND") {
      throw new MissingPeerDependencyError({ ...details, cause: error });
    }
  }
}
