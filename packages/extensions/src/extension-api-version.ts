/**
 * The extension contract version this package implements. An extension declares the version it was
 * written against as `apiVersion`; loading one with another version fails with
 * `EXTENSION_API_VERSION`. The number changes only when the contract breaks.
 */
export const EXTENSION_API_VERSION = 1;
