/**
 * What the preview page offers (`mcp-gen mock --preview`): each view of the mocked server with the
 * tools that link to it, and for each tool a sample input made from its inputSchema by the mock's
 * own generator, so the page can play a tool call to the view the way a host would.
 */
import type { ServiceModel } from '../../model/service-model.js';
import { viewOfTool } from '../../model/views.js';
import { SampleError, sampleValue } from '../../samples/generate.js';
import type { ToolValidators } from '../validators.js';

export interface PreviewTool {
  name: string;
  title?: string;
  /** A value the tool's inputSchema accepts (`{}` when no generated value satisfied it). */
  input: unknown;
}

export interface PreviewView {
  uri: string;
  title: string;
  tools: PreviewTool[];
}

/** The sample input of one tool: same seed, same input, as the mock's answers. */
export function sampleInput(model: ServiceModel, validators: ReadonlyMap<string, ToolValidators>, seed: string | number, name: string): unknown {
  const tool = model.tools.find((t) => t.name === name);
  const validate = validators.get(name)?.input;
  if (tool === undefined || validate === undefined) return {};
  try {
    return sampleValue({ schema: tool.inputSchema, seed, path: `preview\u0000${name}\u0000input`, validate, label: `tool ${name} (inputSchema)` });
  } catch (error) {
    if (error instanceof SampleError) return {};
    throw error;
  }
}

/** Every view a tool links to, in the order the tools are listed; views no tool links to come last. */
export function previewViews(model: ServiceModel, validators: ReadonlyMap<string, ToolValidators>, seed: string | number): PreviewView[] {
  const byUri = new Map<string, PreviewView>();
  // A manifest's view, or (from a snapshot or a live server) the `ui://` resource it is listed as.
  const titleOf = (uri: string): string => {
    const entry = [...(model.views ?? []), ...model.resources].find((v) => v.uri === uri);
    const title = entry?.wire['title'];
    return typeof title === 'string' ? title : (entry?.name ?? uri);
  };
  for (const tool of model.tools) {
    const uri = viewOfTool(tool);
    if (uri === undefined) continue;
    let view = byUri.get(uri);
    if (view === undefined) byUri.set(uri, (view = { uri, title: titleOf(uri), tools: [] }));
    const title = tool.wire['title'];
    view.tools.push({ name: tool.name, ...(typeof title === 'string' ? { title } : {}), input: sampleInput(model, validators, seed, tool.name) });
  }
  for (const view of model.views ?? []) if (!byUri.has(view.uri)) byUri.set(view.uri, { uri: view.uri, title: titleOf(view.uri), tools: [] });
  return [...byUri.values()];
}
