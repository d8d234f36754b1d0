import type { LoggingLevel } from '../api.js';

/** Lowest to highest; a session's threshold is an index into this list. */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
