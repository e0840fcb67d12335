import pkg from "../../package.json" with { type: "json" };

// Replaced at build time by build.ts (--define); absent when run from source.
declare const WEIR_VERSION: string | undefined;
declare const WEIR_COMMIT: string | undefined;

export const VERSION: string = typeof WEIR_VERSION === "string" ? WEIR_VERSION : pkg.version;
export const COMMIT: string = typeof WEIR_COMMIT === "string" ? WEIR_COMMIT : "source";
