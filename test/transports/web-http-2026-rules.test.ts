// runtime/http-2026-rules.test.ts, every case, against the Web-standard handler (adapters.ts).
import { afterAll, expect } from 'vitest';
import { served, useAdapter } from './adapters.js';

useAdapter('web');
await import('../runtime/http-2026-rules.test.js');

afterAll(() => expect([served.node, served.web > 0]).toEqual([0, true]));
