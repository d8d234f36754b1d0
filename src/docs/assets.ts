/**
 * The page's one stylesheet and one script, inlined. The page's Content-Security-Policy names
 * each by its SHA-256, so these two run and nothing else: no text from a manifest can become
 * script or style even if escaping ever failed, and `default-src 'none'` stops every request.
 */

export const STYLE = `
:root { color-scheme: light; --bg: #ffffff; --fg: #1d2330; --muted: #5b6473; --line: #d9dee7; --panel: #f5f7fa; --accent: #2855c5; --badge: #e8eefc; }
:root[data-theme="dark"] { color-scheme: dark; --bg: #14171d; --fg: #e3e7ee; --muted: #9aa3b2; --line: #2c323d; --panel: #1b1f27; --accent: #8fb0ff; --badge: #23304d; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { color-scheme: dark; --bg: #14171d; --fg: #e3e7ee; --muted: #9aa3b2; --line: #2c323d; --panel: #1b1f27; --accent: #8fb0ff; --badge: #23304d; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { padding: 20px 32px; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
header h1 { margin: 0; font-size: 22px; }
header .version, .muted { color: var(--muted); }
.layout { display: grid; grid-template-columns: 260px 1fr; }
nav { border-right: 1px solid var(--line); padding: 16px; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 16px 0 4px; }
nav a { display: block; color: var(--fg); text-decoration: none; padding: 2px 0; overflow-wrap: anywhere; }
nav a:hover { color: var(--accent); }
main { padding: 16px 32px 64px; min-width: 0; }
input[type="search"] { width: 100%; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); }
button { border: 1px solid var(--line); background: var(--panel); color: var(--fg); border-radius: 6px; padding: 4px 10px; cursor: pointer; margin-left: auto; }
section.item { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 16px 0; background: var(--bg); }
section.item h3 { margin: 0 0 4px; font-size: 17px; overflow-wrap: anywhere; }
section.auth { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 8px; padding: 4px 16px; margin: 16px 0; background: var(--panel); overflow-wrap: anywhere; }
.scopes { font-size: 14px; margin: 4px 0; }
.scopes code { background: var(--badge); border-radius: 4px; padding: 0 4px; }
h4 { margin: 14px 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.desc, td.desc { white-space: pre-wrap; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 10px; background: var(--badge); color: var(--fg); margin-left: 6px; font-weight: normal; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 600; }
td code, h3 code { overflow-wrap: anywhere; }
.req { color: #c2410c; font-weight: 600; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; overflow: auto; font-size: 13px; }
.hidden { display: none; }
#count { font-size: 13px; margin: 6px 0 0; }
`;

/** Search (filters the sections and their nav links) and the light/dark switch. */
export const SCRIPT = `
(function () {
  var root = document.documentElement;
  var items = Array.prototype.slice.call(document.querySelectorAll('section.item'));
  var links = {};
  Array.prototype.forEach.call(document.querySelectorAll('nav a[data-for]'), function (a) { links[a.getAttribute('data-for')] = a; });
  var box = document.getElementById('search');
  var count = document.getElementById('count');
  function filter() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (item) {
      var text = item.getAttribute('data-search');
      var match = words.every(function (w) { return text.indexOf(w) !== -1; });
      item.classList.toggle('hidden', !match);
      if (links[item.id]) links[item.id].classList.toggle('hidden', !match);
      if (match) shown++;
    });
    count.textContent = words.length === 0 ? '' : shown + ' of ' + items.length + ' shown';
  }
  box.addEventListener('input', filter);
  var toggle = document.getElementById('theme');
  toggle.addEventListener('click', function () {
    var dark = root.getAttribute('data-theme') === 'dark' || (!root.hasAttribute('data-theme') && matchMedia('(prefers-color-scheme: dark)').matches);
    root.setAttribute('data-theme', dark ? 'light' : 'dark');
  });
})();
`;
