// Ratios against what ran beside us in the same run (issue 42 item 5): one row per figure, the
// same shape in every bench's JSON report (`ratios`), so bench/summary.mjs can put them in one table.
//
// A row: { metric, unit, reference, ours, theirs, ratio, range: [min, max], rounds, target? }
//   ours, theirs  medians of the samples (theirs = the peer, floor or older commit named by `reference`);
//   ratio         median of the ratios paired round by round (ours[i] / theirs[i]), so a busy moment
//                 on the machine lands on both sides of each ratio;
//   range         the smallest and largest of those per-round ratios;
//   target        { ratio: x } (ours/theirs ≤ x) or { value: x } (ours ≤ x, in `unit`), lower is better.
import { median } from './stats.mjs';

/**
 * A row from per-round samples of ours and of the reference. A reference with one sample is compared
 * with every round of ours (a figure measured once, such as a file size).
 */
export function ratioRow({ metric, unit = '', reference, ours, theirs, target }) {
  if (ours.length === 0 || theirs.length === 0) throw new Error(`${metric}: no samples`);
  if (theirs.length !== 1 && theirs.length !== ours.length)
    throw new Error(`${metric}: ${ours.length} samples of ours against ${theirs.length} of ${reference}`);
  const ratios = ours.map((value, i) => value / theirs[theirs.length === 1 ? 0 : i]);
  return {
    metric,
    unit,
    reference,
    ours: median(ours),
    theirs: median(theirs),
    ratio: median(ratios),
    range: [Math.min(...ratios), Math.max(...ratios)],
    rounds: ours.length,
    ...(target === undefined ? {} : { target }),
  };
}

/** 'met', 'MISSED', '' without a target, '–' when the figure is no number (a window too short to time). */
export function verdict(row) {
  if (row.target === undefined) return '';
  const measured = row.target.ratio !== undefined ? row.ratio : row.ours;
  const bound = row.target.ratio ?? row.target.value;
  if (!Number.isFinite(measured) || measured <= 0) return '–';
  return measured <= bound ? 'met' : 'MISSED';
}

export function formatTarget(row) {
  if (row.target === undefined) return '';
  return row.target.ratio !== undefined ? `≤ ${row.target.ratio}x` : `≤ ${row.target.value} ${row.unit}`.trim();
}

export function formatNumber(value) {
  if (!Number.isFinite(value)) return '–';
  const size = Math.abs(value);
  if (size >= 100) return Math.round(value).toString();
  if (size >= 10) return value.toFixed(1);
  if (size >= 0.1) return value.toFixed(2);
  return value.toPrecision(2);
}

export function formatRatio(ratio) {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '–';
}

export function formatRange([min, max]) {
  if (!Number.isFinite(min) && !Number.isFinite(max)) return '–';
  return `${formatRatio(min)} – ${formatRatio(max)}`;
}

/** The ratio as printed: more digits where two would hide which side of its target it lies. */
function shownRatio(row) {
  const bound = row.target?.ratio;
  if (bound !== undefined && Number.isFinite(row.ratio) && row.ratio !== bound && Math.abs(row.ratio - bound) < 0.005) return `${row.ratio.toFixed(4)}x`;
  return formatRatio(row.ratio);
}

const cell = (text) => String(text).replaceAll('|', '\\|');
const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;

/** The Markdown table of rows; `bench` adds a first column naming the bench of each row. */
export function formatRatioTable(rows, { bench = false } = {}) {
  const header = [...(bench ? ['bench'] : []), 'metric', 'ours', 'reference', 'ratio', 'range (min – max)', 'target', 'verdict', 'rounds'];
  const body = rows.map((row) => [
    ...(bench ? [row.bench ?? ''] : []),
    row.unit ? `${row.metric} (${row.unit})` : row.metric,
    formatNumber(row.ours),
    `${row.reference} ${formatNumber(row.theirs)}`,
    shownRatio(row),
    formatRange(row.range),
    formatTarget(row),
    verdict(row),
    row.rounds,
  ]);
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/** Prints the rows under a heading, as every bench does at its end. */
export function printRatios(rows, heading = 'Ratios against what ran beside us in this run') {
  process.stdout.write(`\n${heading}:\n\n${formatRatioTable(rows)}\n`);
}
