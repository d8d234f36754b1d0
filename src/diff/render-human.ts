/**
 * The default output: findings grouped by item, items with breaking findings first, one line per
 * finding, then a summary line. Colour only on a terminal that wants it; text from the inputs is
 * passed through the terminal sink before any colour is added.
 */
import { terminalText } from '../printer/escape.js';
import { severityRank, worst, type DiffReport, type Finding, type Severity } from './finding.js';

const ANSI = { bold: '\u001b[1m', red: '\u001b[31m', green: '\u001b[32m', dim: '\u001b[2m', reset: '\u001b[0m' };
const SEVERITY_COLOUR: Record<Severity, string> = { breaking: ANSI.red, compatible: ANSI.green, docs: ANSI.dim };

/** Colour when stdout is a terminal, unless `NO_COLOR` is set (to anything but '') or TERM is `dumb`. */
export function wantsColour(stdoutIsTty: boolean, env: NodeJS.ProcessEnv): boolean {
  return stdoutIsTty && (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb';
}

export function renderHuman(report: DiffReport, colour: boolean): string[] {
  const paint = (code: string, text: string): string => (colour ? `${code}${text}${ANSI.reset}` : text);
  const lines = [`mcp-gen diff: ${terminalText(`${report.old.kind} ${report.old.source}`)} → ${terminalText(`${report.new.kind} ${report.new.source}`)}`];

  const groups = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const group = groups.get(finding.item);
    if (group) group.push(finding);
    else groups.set(finding.item, [finding]);
  }
  // Stable sort: items keep the report's order within each severity.
  const ordered = [...groups.entries()].map(([item, findings]) => ({ item, findings, worst: worst(...findings.map((f) => f.severity)) }));
  ordered.sort((a, b) => severityRank(a.worst) - severityRank(b.worst));

  for (const { item, findings } of ordered) {
    lines.push('', paint(ANSI.bold, terminalText(item)));
    for (const f of findings) {
      const impact = f.impact ? ` [client: ${f.impact.client}, server: ${f.impact.server}]` : '';
      lines.push(`  ${paint(SEVERITY_COLOUR[f.severity], f.severity.padEnd(10))}  ${terminalText(f.message)}${impact}  ${paint(ANSI.dim, terminalText(f.pointer))}`);
    }
  }
  lines.push('', summaryLine(report));
  return lines;
}

function summaryLine(report: DiffReport): string {
  const { breaking, compatible, docs, total } = report.summary;
  if (total === 0) return 'no differences.';
  return `${breaking} breaking, ${compatible} compatible, ${docs} docs (${total} finding${total === 1 ? '' : 's'}).`;
}
