#!/usr/bin/env node
// The one table of today's ratios (issue 42 item 5): reads the JSON reports the benches wrote
// (bench/results/*.json by default), takes the `ratios` rows each holds (bench/lib/ratios.mjs) and
// prints them as one Markdown table, with the machine they came from and the load average before and
// after each bench, ready to lead bench/RESULTS.md. The table holds the ratios that have a target
// (issue 42's acceptance, and the bounds earlier issues set); `--all` adds every other ratio below
// them. Reports without ratios are listed by name.
//
//   node bench/summary.mjs [--dir bench/results] [--all] [--out summary.md]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { formatRatioTable, verdict } from './lib/ratios.mjs';
import { repoRoot } from './lib/paths.mjs';

/** The order of the benches in the table: issue 42's acceptance first, then the rest by name. */
const ORDER = ['openapi', 'scale', 'servers', 'http', 'clients', 'client-http', 'cold-start', 'memory'];

const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);

/** Every report in `dir`: { name, report }, in table order. */
export function readReports(dir) {
  const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  const reports = files.map((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    try {
      return { name: path.basename(file, '.json'), report: JSON.parse(text) };
    } catch (error) {
      throw new Error(`${path.join(dir, file)} is not JSON: ${error.message}`);
    }
  });
  return reports.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

const loads = (values) => (Array.isArray(values) ? values.map((v) => v.toFixed(2)).join(' / ') : '?');

/** The load average a report recorded before and after its run, under the names the benches use. */
function loadOf(report) {
  const before = report.loadAverageAtStart ?? report.loadavg;
  const after = report.loadAverageAtEnd;
  return `load (1 / 5 / 15 min) before ${loads(before)}, after ${loads(after)}`;
}

function describeMachine(m) {
  if (m === undefined) return 'unknown machine';
  const ram = typeof m.ramGiB === 'number' ? `, ${m.ramGiB.toFixed(0)} GiB RAM` : '';
  return `${m.cpu ?? 'unknown CPU'}, ${m.nproc ?? '?'} cores${ram}, Node ${m.node ?? '?'}`;
}

/** The summary's Markdown text for the reports in `dir`; `all` keeps the rows without a target. */
export function summarize(dir, { all = false } = {}) {
  const reports = readReports(dir);
  const rows = [];
  const withRatios = [];
  const without = [];
  for (const { name, report } of reports) {
    if (!Array.isArray(report.ratios) || report.ratios.length === 0) {
      without.push(name);
      continue;
    }
    withRatios.push({ name, report });
    for (const row of report.ratios) rows.push({ ...row, bench: name });
  }
  if (rows.length === 0) throw new Error(`no report in ${dir} holds ratios: run the benches first (npm run bench:all)`);

  const machines = [...new Set(withRatios.map(({ report }) => describeMachine(report.machine)))];
  const targeted = rows.filter((row) => row.target !== undefined);
  const others = rows.filter((row) => row.target === undefined);
  const verdicts = targeted.map(verdict);
  const met = verdicts.filter((v) => v === 'met').length;
  const missed = verdicts.filter((v) => v === 'MISSED').length;
  const lines = [
    `Ratios measured ${dateRange(withRatios)} on ${machines.join('; ')}${machines.length > 1 ? ' (MORE THAN ONE MACHINE: the ratios do not compare)' : ''}.`,
    'Each ratio is ours over the reference named beside it, run alongside in the same run: the median of the per-round ratios, with their range. Lower is better.',
    `Targets: ${met} met, ${missed} missed${verdicts.length - met - missed > 0 ? `, ${verdicts.length - met - missed} without a verdict (a window too short to time)` : ''}; ${others.length} more ratios without a target${all ? ' below' : ' (`--all` lists them)'}.`,
    '',
    formatRatioTable(targeted, { bench: true }),
    ...(all && others.length > 0 ? ['', formatRatioTable(others, { bench: true })] : []),
    '',
    ...withRatios.map(({ name, report }) => `- ${name}: ${report.date ?? 'undated'}, ${loadOf(report)}`),
  ];
  if (without.length > 0) lines.push('', `Reports without ratios (not in the table): ${without.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

function dateRange(reports) {
  const dates = reports.map(({ report }) => report.date).filter((d) => typeof d === 'string').sort();
  if (dates.length === 0) return 'at an unknown date';
  const day = (d) => d.slice(0, 16).replace('T', ' ');
  return dates.length === 1 || day(dates[0]) === day(dates.at(-1)) ? `${day(dates[0])} UTC` : `${day(dates[0])} to ${day(dates.at(-1))} UTC`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { dir: { type: 'string', default: path.join(repoRoot, 'bench', 'results') }, all: { type: 'boolean', default: false }, out: { type: 'string' } },
  });
  const text = summarize(values.dir, { all: values.all });
  if (values.out) writeFileSync(values.out, text);
  process.stdout.write(text);
}
