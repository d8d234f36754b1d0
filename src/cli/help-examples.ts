/** The "Examples:" block of each command's --help: what users type most, each with a word on why. */
export const HELP_EXAMPLES: Readonly<Record<string, readonly [command: string, why: string][]>> = {
  types: [
    ['mcp-gen types --spec 2026-07-28 -o mcp-protocol', 'bindings of one revision, shipped with mcp-gen (offline)'],
    ['mcp-gen types --spec ./schema.json --revision draft', 'from a schema file'],
    ['mcp-gen types --spec 2025-11-25 --check', 'exit 1 if the committed bindings are stale'],
  ],
  server: [
    ['mcp-gen server manifest.yaml -o server', 'a typed server: generated code, handler skeletons, runtime'],
    ['mcp-gen server manifest.yaml -o server --watch', 'regenerate on every save'],
    ['mcp-gen server manifest.yaml -o server --check --json', 'CI: is the output current? (machine-readable)'],
  ],
  client: [
    ['mcp-gen client --from-url http://127.0.0.1:3000/mcp -o client', 'a typed client of a live server'],
    ["mcp-gen client --from-command 'node build/main.js' -o client", 'of a stdio server'],
    ['mcp-gen client manifest.yaml -o client', 'from the manifest the server is generated from'],
    ['mcp-gen client --from-url https://example.com/mcp --save-snapshot server.json', 'keep what was read, to regenerate offline'],
    ['mcp-gen client manifest.yaml -o weather-client --package weather-client', 'an npm package: npm pack, then npm install it in any app'],
  ],
  diff: [
    ['mcp-gen diff old/manifest.yaml manifest.yaml', 'what changed for callers, breaking first'],
    ['mcp-gen diff server.json http://127.0.0.1:3000/mcp --fail-on any', 'a snapshot against the live server'],
    ['mcp-gen diff 2025-11-25 2026-07-28 --json', 'two protocol revisions, as JSON'],
  ],
  check: [
    ['mcp-gen check', 'every output below here (or the config file) current?'],
    ['mcp-gen check server client --json', 'named folders, machine-readable'],
  ],
  docs: [
    ['mcp-gen docs manifest.yaml -o docs', 'docs/index.html, a page that works from file://'],
    ['mcp-gen docs --from-url http://127.0.0.1:3000/mcp -o docs', "a live server's reference"],
  ],
  init: [
    ['mcp-gen init my-server && cd my-server && npm install && npm test', 'a server project that passes its own test'],
    ['mcp-gen init my-app --client --url http://127.0.0.1:3000/mcp', 'a client project of a running server'],
  ],
  mock: [
    ['mcp-gen mock manifest.yaml', 'a stdio server answering every tool with valid generated outputs'],
    ['mcp-gen mock manifest.yaml --http --port 3001 --seed 7 --fixtures mock.yaml', 'over HTTP, with canned answers'],
    ['mcp-gen mock manifest.yaml --http --enforce-auth', "the manifest's auth enforced with a development token printed at start"],
  ],
};

/** The block as commander's `addHelpText('after', …)` wants it. */
export function examplesText(command: string): string | undefined {
  const examples = HELP_EXAMPLES[command];
  if (examples === undefined) return undefined;
  const width = Math.max(...examples.map(([line]) => line.length));
  return `\nExamples:\n${examples.map(([line, why]) => `  $ ${line.padEnd(width)}  # ${why}`).join('\n')}`;
}
