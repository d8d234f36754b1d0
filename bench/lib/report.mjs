// What every benchmark run records beside its figures, and where the record goes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { placement } from './pin.mjs';

/** The machine the run took place on. */
export function machine() {
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model,
    ramGiB: totalmem() / 2 ** 30,
    node: process.version,
    placement,
  };
}

/** Writes the run's report as JSON, creating its folder. */
export function writeReport(file, report) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
