/**
 * `--json`: the report as one JSON document, keys always in the documented order:
 * `{ old, new, findings: [{ kind, severity, item, pointer, message, from?, to?, rename?, impact? }], summary }`.
 */
import type { DiffReport, Finding } from './finding.js';

export function renderJson(report: DiffReport): string {
  const findings = report.findings.map((f): Finding => {
    const ordered: Finding = { kind: f.kind, severity: f.severity, item: f.item, pointer: f.pointer, message: f.message };
    if (f.from !== undefined) ordered.from = f.from;
    if (f.to !== undefined) ordered.to = f.to;
    if (f.rename !== undefined) ordered.rename = { from: f.rename.from, to: f.rename.to };
    if (f.impact !== undefined) ordered.impact = { client: f.impact.client, server: f.impact.server };
    return ordered;
  });
  const { breaking, compatible, docs, total } = report.summary;
  const document = {
    old: { kind: report.old.kind, source: report.old.source },
    new: { kind: report.new.kind, source: report.new.source },
    findings,
    summary: { breaking, compatible, docs, total },
  };
  return JSON.stringify(document, null, 2);
}
