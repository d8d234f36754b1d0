/**
 * The MCP revisions mcp-gen knows by name and where their shipped schemas live: constants alone,
 * so the CLI's start-up (`--version`, the command table) does not load the spec loader.
 */
import { fileURLToPath } from 'node:url';

/** Every published MCP schema revision mcp-gen knows by name, oldest first. */
export const KNOWN_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft'] as const;
export type KnownRevision = (typeof KNOWN_REVISIONS)[number];

/** The official schemas shipped in the package (`schema/mcp-spec/`), two levels up from src/load and dist/load. */
export const BUNDLED_SPEC_DIR = fileURLToPath(new URL('../../schema/mcp-spec/', import.meta.url));
