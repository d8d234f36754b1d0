export declare const SYSTEM_PACKAGES: ReadonlyArray<{ binary: string; pkg: string; usedBy: string }>;
/** The executable's path on PATH or in Debian's install folders, or undefined. */
export declare function findBinary(name: string): string | undefined;
