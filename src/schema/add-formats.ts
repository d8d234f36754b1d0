/**
 * Adding the standard formats to an ajv: its own module, since ajv-formats loads ajv itself, and
 * only the code that builds an ajv (loaded when something is compiled) should pay for that.
 */
import addFormatsModule from 'ajv-formats';
import { EXTRA_FORMATS, type FormatCheck } from './formats.js';

/**
 * ajv-formats' full set (without its non-standard formatMinimum/… keywords) plus the four formats
 * of formats.ts, checked by `checks` (see inProcessFormats in src/emit/validators/inline-helpers.ts). The
 * manifest check only compiles schemas and never runs a format, so it may pass stand-ins.
 */
export function addStandardFormats(ajv: Parameters<typeof addFormatsModule.default>[0], checks: Readonly<Record<string, FormatCheck>>): void {
  // ajv-formats is CommonJS; under NodeNext its default import is the module object.
  (addFormatsModule as unknown as typeof addFormatsModule.default)(ajv, { mode: 'full', keywords: false });
  for (const format of Object.keys(EXTRA_FORMATS)) {
    const check = checks[format];
    if (check === undefined) throw new Error(`no checker for format ${format}`);
    ajv.addFormat(format, check);
  }
}
