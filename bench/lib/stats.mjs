// Medians, percentiles and the printed table.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nearest-rank percentile of an ascending array, `q` in (0, 1]. */
export function percentile(sorted, q) {
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1];
}

/**
 * The figures of one window from its slices, each `{ calls, userSeconds, systemSeconds, elapsedMs,
 * latencies }` (latencies in ms).
 */
export function windowMetrics(slices) {
  const total = (key) => slices.reduce((sum, s) => sum + s[key], 0);
  const calls = total('calls');
  const user = total('userSeconds');
  const system = total('systemSeconds');
  const cpu = user + system;
  const elapsedMs = total('elapsedMs');
  const latencies = new Float64Array(calls);
  let offset = 0;
  for (const s of slices) {
    latencies.set(s.latencies, offset);
    offset += s.calls;
  }
  latencies.sort();
  return {
    calls,
    cpuPerCallUs: (cpu * 1e6) / calls,
    p50Us: percentile(latencies, 0.5) * 1000,
    p99Us: percentile(latencies, 0.99) * 1000,
    callsPerSec: (calls * 1000) / elapsedMs,
    userCpuPerCallUs: (user * 1e6) / calls,
    systemCpuPerCallUs: (system * 1e6) / calls,
    serverCpuSeconds: cpu,
  };
}

function formatNumber(value) {
  if (!Number.isFinite(value)) return '–';
  if (Math.abs(value) >= 1000) return Math.round(value).toString();
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function formatRatio(ratio) {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '–';
}

/**
 * A Markdown table: the median of each server, the paired ratios (median over rounds), the spread of
 * ours/floor over rounds, and the target with a verdict (lower is better for every targeted
 * metric).
 */
export function formatTable(reported, summary, serverNames, pairs) {
  const usedPairs = pairs.filter(([a, b]) => serverNames.includes(a) && serverNames.includes(b));
  const withRange = serverNames.includes('ours') && serverNames.includes('floor');
  const header = [
    'metric',
    ...serverNames,
    ...usedPairs.map(([a, b]) => `${a}/${b}`),
    ...(withRange ? ['ours/floor range'] : []),
    'target ours/floor',
  ];
  const rows = reported.map(([metric, label, target]) => {
    const entry = summary[metric];
    const ratio = entry.ratios['ours/floor'];
    let verdict = '';
    if (target !== undefined) {
      verdict = `≤ ${target}`;
      // A window too short for the 10 ms CPU clock gives 0 or ∞: no verdict then.
      if (ratio !== undefined && Number.isFinite(ratio) && ratio > 0)
        verdict += ratio <= target ? ' met' : ' MISSED';
    }
    return [
      label,
      ...serverNames.map((name) => formatNumber(entry.median[name])),
      ...usedPairs.map(([a, b]) => formatRatio(entry.ratios[`${a}/${b}`])),
      ...(withRange ? [entry.ratioRanges['ours/floor'].map(formatRatio).join(' – ')] : []),
      verdict,
    ];
  });
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
