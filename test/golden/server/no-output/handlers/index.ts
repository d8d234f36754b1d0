import type { Handlers } from '../generated/types.js';
import { addNote } from './tools/addNote.js';
import { ping } from './tools/ping.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. Regenerating adds
 * new tools here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    add_note: addNote,
    ping: ping,
  },
};
