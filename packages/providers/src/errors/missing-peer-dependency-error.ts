import { ArborError } from "./arbor-error";
import { hasErrorMarker, setErrorMarker } from "./error-marker";

const MARKER = Symbol.for("arbor.error.missing-peer-dependency");

/** What a {@link MissingPeerDependencyError} names. */
export interface MissingPeerDependencyDetails {
  /** The package to install, for example `@anthropic-ai/sdk`. */
  packageName: string;
  /** The version range Arbor supports, for example `^1.14.0`. */
  versionRange: string;
  /** The entry point or feature that needs it, for example `@arbor/providers/anthropic`. */
  neededBy: string;
  /** The module-resolution error, when there was one. */
  cause?: unknown;
}

/**
 * An optional peer dependency (a provider SDK, the tokenizer) is not installed. Code
 * `MISSING_PEER_DEPENDENCY`; the message names the package and the command to install it, for
 * example `npm install @anthropic-ai/sdk@"^1.14.0"`.
 */
export class MissingPeerDependencyError extends ArborError {
  declare readonly code: "MISSING_PEER_DEPENDENCY";
  /** The package to install. */
  readonly packageName: string;
  /** The version range Arbor supports. */
  readonly versionRange: string;
  /** The entry point or feature that needs it. */
  readonly neededBy: string;

  constructor(details: MissingPeerDependencyDetails) {
    super(
      "MISSING_PEER_DEPENDENCY",
      `${details.neededBy} needs ${details.packageName}, an optional peer dependency that is not installed: npm install ${details.packageName}@"${details.versionRange}"`,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.name = "MissingPeerDependencyError";
    this.packageName = details.packageName;
    this.versionRange = details.versionRange;
    this.neededBy = details.neededBy;
    setErrorMarker(this, MARKER);
  }

  /** True for a `MissingPeerDependencyError` from any copy of this package (checks its own marker). */
  static override isInstance(value: unknown): value is MissingPeerDependencyError {
    return hasErrorMarker(value, MARKER);
  }
}
