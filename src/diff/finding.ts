/**
 * What `mcp-gen diff` reports: one finding per change, classified for the parties that already
 * exist. The shape is the `--json` output, documented in docs/workflow.md; keep it stable.
 */

/**
 * `breaking`: an existing peer can fail because of the change. `compatible`: it keeps working.
 * `docs`: only a description, title or examples changed.
 */
export type Severity = 'breaking' | 'compatible' | 'docs';

export const SEVERITIES: readonly Severity[] = ['breaking', 'compatible', 'docs'];

/** Lower is worse: sorting by rank puts breaking findings first. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export function worst(...severities: Severity[]): Severity {
  return severities.reduce((a, b) => (severityRank(b) < severityRank(a) ? b : a), 'docs');
}

export interface Finding {
  /** Which rule fired: `added`, `removed`, `type`, `enum`, `property-added`, … (listed in docs/workflow.md). */
  kind: string;
  /** For a revision diff, the worse of `impact.client` and `impact.server`. */
  severity: Severity;
  /** What changed, as a label: `tool get_weather`, `upstream`, `request initialize (client → server)`, `definition Tool`. */
  item: string;
  /** JSON pointer into the new side's document (the old side's, for what was removed). */
  pointer: string;
  message: string;
  from?: unknown;
  to?: unknown;
  /**
   * A removal and an addition that are probably one rename (a tool, prompt, property or prompt
   * argument with the same schema or fields under another name): both findings carry it.
   */
  rename?: { from: string; to: string };
  /** Revision diffs only: the change for an existing client and for an existing server. */
  impact?: { client: Severity; server: Severity };
}

/** The kinds of input `mcp-gen diff` compares. */
export type SideKind = 'manifest' | 'snapshot' | 'url' | 'command' | 'revision' | 'openapi';

export interface SideInfo {
  kind: SideKind;
  /** As the user gave it (files relative to the working directory). */
  source: string;
}

export interface DiffSummary {
  breaking: number;
  compatible: number;
  docs: number;
  total: number;
}

export interface DiffReport {
  old: SideInfo;
  new: SideInfo;
  findings: Finding[];
  summary: DiffSummary;
}

export function summarize(findings: readonly Finding[]): DiffSummary {
  const count = (severity: Severity): number => findings.filter((f) => f.severity === severity).length;
  return { breaking: count('breaking'), compatible: count('compatible'), docs: count('docs'), total: findings.length };
}
