/**
 * One change found between two JSON Schemas, classified for both ways a schema can face an
 * existing peer:
 * - `input`: the peer *sends* values of this schema (a tool's inputSchema, for its clients).
 *   Narrowing breaks it: what it sent before may now be refused.
 * - `output`: the peer *receives* values of this schema (a tool's outputSchema, for its clients).
 *   Widening breaks it: it may now get values it never handled.
 */
import type { Severity } from './finding.js';

export interface SchemaChange {
  kind: string;
  /** Relative to the compared schema's root, along the path the comparison took ($refs followed). */
  pointer: string;
  message: string;
  input: Severity;
  output: Severity;
  from?: unknown;
  to?: unknown;
  /**
   * Why the change breaks one way, said only where it does: `message` plus `; <why>` for the
   * way that is breaking (a closed old object explains an added property breaking its receivers,
   * not its senders).
   */
  why?: { input?: string; output?: string };
  /** A property removed and one added with the same schema: probably one renamed. */
  rename?: { from: string; to: string };
}

/** The change's message for the peers facing it these ways, with each reason that breaks one of them. */
export function messageFor(change: SchemaChange, roles: readonly ('input' | 'output')[]): string {
  const reasons = roles.flatMap((role) => {
    const why = change.why?.[role];
    return why !== undefined && change[role] === 'breaking' ? [why] : [];
  });
  return [change.message, ...reasons].join('; ');
}

/**
 * What a change does to the set of values a schema accepts. `changed`: some values leave and
 * others join (or mcp-gen cannot tell), which breaks both ways. `neutral`: the accepted values do
 * not change (a default, an annotation). `docs`: only a description, title or examples.
 */
export type Effect = 'narrowed' | 'widened' | 'changed' | 'neutral' | 'docs';

export const EFFECT_SEVERITIES: Readonly<Record<Effect, { input: Severity; output: Severity }>> = {
  narrowed: { input: 'breaking', output: 'compatible' },
  widened: { input: 'compatible', output: 'breaking' },
  changed: { input: 'breaking', output: 'breaking' },
  neutral: { input: 'compatible', output: 'compatible' },
  docs: { input: 'docs', output: 'docs' },
};

/** Inside `not`, accepting more means accepting less: the two ways swap. */
export function flipped(change: SchemaChange): SchemaChange {
  const swapped: SchemaChange = { ...change, input: change.output, output: change.input };
  if (change.why !== undefined) {
    const { input, output } = change.why;
    swapped.why = { ...(output !== undefined ? { input: output } : {}), ...(input !== undefined ? { output: input } : {}) };
  }
  return swapped;
}

/** True when the change can break a peer either way (used to match anyOf branches and the like). */
export function alters(change: SchemaChange): boolean {
  return change.input === 'breaking' || change.output === 'breaking';
}
