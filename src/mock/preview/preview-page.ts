/**
 * The preview page of `mcp-gen mock --preview`: the controls a host would have (which view and
 * tool, the tool input, theme and display mode), the stage the view is framed on, and the log of
 * every message between host and view. It holds no server text: the script fills it in with
 * textContent, so nothing from a manifest or a live server can become markup here.
 */
import { HOST_SCRIPT } from './host-script.js';

const STYLE = `
:root { color-scheme: light; --bg: #fff; --fg: #1d2330; --muted: #5b6473; --line: #d9dee7; --panel: #f5f7fa; }
body[data-theme="dark"] { color-scheme: dark; --bg: #14171d; --fg: #e3e7ee; --muted: #9aa3b2; --line: #2c323d; --panel: #1b1f27; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { font-size: 16px; margin: 0; }
#server { color: var(--muted); }
select, button, textarea { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 3px 8px; }
button { cursor: pointer; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(280px, 36%); min-height: calc(100vh - 52px); }
#stage { padding: 16px; min-width: 0; }
#stage iframe { display: block; width: 100%; height: 320px; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
#stage iframe.borderless { border-color: transparent; }
body[data-mode="fullscreen"] #stage iframe { position: fixed; inset: 0; width: 100vw; height: 100vh; border-radius: 0; z-index: 10; }
body[data-mode="pip"] #stage iframe { position: fixed; right: 16px; bottom: 16px; width: 360px; height: 240px; z-index: 10; box-shadow: 0 4px 20px #0004; }
body[data-mode="fullscreen"] #mode { position: fixed; top: 8px; right: 8px; z-index: 11; }
aside { border-left: 1px solid var(--line); padding: 12px 16px; overflow: auto; max-height: calc(100vh - 52px); }
aside h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 12px 0 4px; }
textarea { width: 100%; min-height: 90px; font-family: ui-monospace, monospace; font-size: 12px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; min-height: 1.5em; }
#log { list-style: none; padding: 0; margin: 0; font-size: 12px; }
#log li { border-bottom: 1px solid var(--line); padding: 3px 0; overflow-wrap: anywhere; }
#log li[data-from="view"] b { color: #2563eb; }
#log li[data-from="host"] b { color: #b45309; }
#log code { font-family: ui-monospace, monospace; }
`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-gen mock preview</title>
<style>${STYLE}</style></head>
<body data-theme="light" data-mode="inline">
<header>
  <h1>MCP Apps preview</h1><span id="server"></span>
  <label>View <select id="view"></select></label>
  <label>Tool <select id="tool"></select></label>
  <button id="call" type="button">Call the tool again</button>
  <button id="cancel" type="button">Cancel the call</button>
  <button id="reload" type="button">Reload the view</button>
  <button id="theme" type="button">Toggle theme</button>
  <label>Display <select id="mode"><option>inline</option><option>fullscreen</option><option>pip</option></select></label>
</header>
<div class="layout">
  <main id="stage"></main>
  <aside>
    <h2>Tool input (sample, editable)</h2><textarea id="input" spellcheck="false"></textarea>
    <h2>Model context (ui/update-model-context)</h2><pre id="context"></pre>
    <h2>Messages, newest first</h2><ol id="log"></ol>
  </aside>
</div>
<script>${HOST_SCRIPT}</script>
</body>
</html>
`;

export function previewPage(): string {
  return PAGE;
}
