// runtime/http-slow-reader.test.ts, every case, against the Web-standard handler (adapters.ts).
import { afterAll, expect } from 'vitest';
import { served, useAdapter } from './adapters.js';

useAdapter('web');
await import('../runtime/http-slow-reader.test.js');

afterAll(() => expect([served.node, served.web > 0]).toEqual([0, true]));
