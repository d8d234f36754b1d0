// Per-process CPU time and memory from /proc (Linux), read from outside the measured server.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CLOCK_TICKS_PER_SECOND = Number(
  execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim(),
);

/** Fields 3… of /proc/<pid>/stat: fields[0] is field 3 (state), so field n is fields[n - 3]. */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces; the fields after it start past the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime and stime (fields 14, 15) of the whole process (all threads), in seconds. */
export function cpuTimes(pid) {
  const fields = statFields(pid);
  return {
    user: Number(fields[11]) / CLOCK_TICKS_PER_SECOND,
    system: Number(fields[12]) / CLOCK_TICKS_PER_SECOND,
  };
}

/** cutime + cstime (fields 16, 17): CPU of this process's children that have been waited for, in seconds. */
export function childrenCpuSeconds() {
  const fields = statFields('self');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND;
}

/** Resident set size (VmRSS) in bytes. */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}
