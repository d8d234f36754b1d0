import { _, CodeGen, ValueScope } from 'ajv/dist/compile/codegen/index.js';
import { _Code, Name } from 'ajv/dist/compile/codegen/code.js';

/**
 * A faster `CodeGen.optimize` for ajv (pinned at 8.20.0), giving the very same code.
 *
 * ajv optimizes each validator function it generates: it counts how often every name is used
 * (`_root.names`) and then drops unused declarations and inlines single-use constants. Its count is
 * a getter on each node of the syntax tree that builds a new map from its children's maps, so a
 * name is copied once per enclosing block: quadratic in the nesting depth. On tool schemas that
 * counting was a third of a tool's compile time. Here the same counts are summed in one walk into
 * one map, and ajv's own `optimizeNames` does the rest, unchanged.
 *
 * The walk knows ajv 8's node shapes: a block (`nodes`) counts its children plus the expressions
 * it holds (an `if` condition, a loop header) and its `else`/`catch`/`finally` blocks; a statement
 * counts the expressions its `names` would. The install checks this against ajv's own count on
 * sample code and stays out if they differ (another ajv); test/validators/ajv-linear-names.test.ts
 * checks it on every function of real schemas.
 */

/** What the walk reads of ajv's (untyped, internal) syntax nodes. */
interface CodeNode {
  readonly names: NameCounts;
  // blocks
  nodes?: CodeNode[];
  condition?: unknown;
  iteration?: unknown;
  from?: unknown;
  to?: unknown;
  iterable?: unknown;
  else?: CodeNode;
  catch?: CodeNode;
  finally?: CodeNode;
  // statements
  lhs?: unknown;
  rhs?: unknown;
  code?: unknown;
  error?: unknown;
  label?: unknown;
}

type NameCounts = { [name: string]: number };

interface CodeGenInternals {
  readonly _root: CodeNode & { optimizeNodes(): unknown; optimizeNames(names: NameCounts, constants: unknown): unknown };
  readonly _constants: unknown;
}

/**
 * An empty object in V8's dictionary mode. A plain `{}` given hundreds of names one after another
 * (`data0`, `valid3`, …) builds a hidden class per name added, in every order met: most of the
 * count's time. A deleted property switches an object to a hash table for good.
 */
function nameTable(): NameCounts {
  const table: NameCounts = { dictionary: 0 };
  delete table['dictionary'];
  return table;
}

/** How often each name is used in `node`: what ajv's `node.names` returns, in time linear in the tree. */
export function countNames(node: CodeNode, counts: NameCounts = nameTable()): NameCounts {
  const nodes = node.nodes;
  if (!Array.isArray(nodes)) {
    countStatement(node, counts);
    return counts;
  }
  for (const child of nodes) countNames(child, counts);
  // Expressions a block holds besides its children; the names a loop or function declares are not uses.
  countExpression(node.condition, counts);
  countExpression(node.iteration, counts);
  countExpression(node.from, counts);
  countExpression(node.to, counts);
  countExpression(node.iterable, counts);
  if (node.else) countNames(node.else, counts);
  if (node.catch) countNames(node.catch, counts);
  if (node.finally) countNames(node.finally, counts);
  return counts;
}

/**
 * A statement's uses, read off its expressions rather than through its `names` (a map built, then
 * copied): a declaration's or assignment's right side, an assignment's target unless it is a plain
 * name, an expression statement's or a `throw`'s expression. Labels and `break` use none.
 */
function countStatement(node: CodeNode, counts: NameCounts): void {
  if ('rhs' in node) {
    if ('lhs' in node && !(node.lhs instanceof Name)) countExpression(node.lhs, counts);
    countExpression(node.rhs, counts);
  } else if ('code' in node) {
    countExpression(node.code, counts);
  } else if ('error' in node) {
    countExpression(node.error, counts);
  } else if (!('label' in node)) {
    for (const name in node.names) counts[name] = (counts[name] ?? 0) + (node.names[name] ?? 0);
  }
}

/** A name, or ajv's code: text and names, counted as `_Code.names` counts them. */
function countExpression(expression: unknown, counts: NameCounts): void {
  if (expression instanceof Name) {
    counts[expression.str] = (counts[expression.str] ?? 0) + 1;
  } else if (expression instanceof _Code) {
    for (const item of (expression as unknown as { _items: readonly unknown[] })._items) {
      if (item instanceof Name) counts[item.str] = (counts[item.str] ?? 0) + 1;
    }
  }
}

/** ajv's `optimize`, with the names counted by countNames. */
function linearOptimize(this: CodeGen, passes = 1): void {
  const gen = this as unknown as CodeGenInternals;
  while (passes-- > 0) {
    gen._root.optimizeNodes();
    gen._root.optimizeNames(countNames(gen._root), gen._constants);
  }
}

/** Code exercising every kind of block, for the install's check. */
function sampleCode(): CodeGen {
  const gen = new CodeGen(new ValueScope({ scope: {} }), {});
  const data = gen.let('data', 1);
  const unused = gen.const('unused', data);
  const once = gen.const('once', _`${data} + 1`, true);
  gen.if(_`${data} > ${once}`).assign(data, unused).elseIf(data).code(data).else();
  gen.forRange('i', data, data, (i) => gen.assign(data, i));
  gen.endIf();
  gen.forOf('item', data, (item) => gen.forIn('key', item, (key) => gen.code(key)));
  gen.for(_`;${data};`, () => gen.break());
  gen.label(gen.name('outer')).add(data, once).assign(_`${data}.x`, 1);
  gen.try(() => gen.throw(data), (e) => gen.code(e), () => gen.return(data));
  gen.func(gen.name('inner'), data, false, () => gen.return(unused));
  return gen;
}

function countsAgree(): boolean {
  const root = (sampleCode() as unknown as CodeGenInternals)._root;
  const theirs = root.names;
  const ours = countNames(root);
  const keys = new Set([...Object.keys(theirs), ...Object.keys(ours)]);
  return [...keys].every((k) => (theirs[k] ?? 0) === (ours[k] ?? 0));
}

/** ajv's own `optimize`, as it was before any install (for the tests' comparison). */
export const ajvOptimize = CodeGen.prototype.optimize;

let installed: boolean | undefined;

/**
 * Replaces `CodeGen.prototype.optimize` (for every ajv of this process: the code is the same, only
 * faster to make) when the check agrees. Returns whether it is installed.
 */
export function installLinearNames(): boolean {
  if (installed === undefined) {
    installed = countsAgree();
    if (installed) CodeGen.prototype.optimize = linearOptimize;
  }
  return installed;
}
