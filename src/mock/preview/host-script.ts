/**
 * The preview page's script: the host side of MCP Apps (`io.modelcontextprotocol/ui`, 2026-01-26),
 * small and our own (no ext-apps in the package). It frames the view's page in a sandboxed iframe
 * (scripts only, an opaque origin, the view's CSP and permissions applied as a host would), answers
 * `ui/initialize` with a host context, plays a tool call to the view (partial input, input, the
 * mock's result), forwards the view's MCP requests to the mock (`/api/rpc`, preview-server.ts) and
 * shows everything else the view asks for in the log. Plain ES2020 in a string: it runs in the
 * browser, never in Node. Every entry also lands in `window.previewLog` ([from, method, detail]).
 */
export const HOST_SCRIPT = String.raw`
(function () {
  'use strict';
  var MODES = ['inline', 'fullscreen', 'pip'];
  var PERMISSIONS = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  var state = { views: [], view: null, tool: null, frame: null, theme: 'light', mode: 'inline', appModes: null, toolDefs: {}, nextId: 1, pending: {}, callId: 0 };
  var log = [];
  window.previewLog = log;
  var byId = function (id) { return document.getElementById(id); };

  function record(from, method, detail) {
    log.push([from, method, detail]);
    var item = document.createElement('li');
    item.dataset.from = from;
    var head = document.createElement('b');
    head.textContent = (from === 'view' ? 'view \u2192 host ' : from === 'host' ? 'host \u2192 view ' : '') + method;
    item.append(head);
    if (method === 'ui/open-link' && detail && typeof detail.url === 'string' && /^https?:/i.test(detail.url)) {
      var link = document.createElement('a');
      link.href = detail.url; link.target = '_blank'; link.rel = 'noopener noreferrer'; link.textContent = detail.url;
      item.append(' ', link);
    } else if (detail !== undefined) {
      var text = document.createElement('code');
      text.textContent = JSON.stringify(detail);
      item.append(' ', text);
    }
    byId('log').prepend(item);
  }

  async function rpc(method, params) {
    var response = await fetch('/api/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: method, params: params }) });
    var body = await response.json();
    if (body.error) { var error = new Error(body.error.message); error.code = body.error.code; error.data = body.error.data; throw error; }
    return body.result;
  }

  function post(message) { if (state.frame && state.frame.contentWindow) state.frame.contentWindow.postMessage(message, '*'); }
  function notify(method, params) { record('host', method, params); post({ jsonrpc: '2.0', method: method, params: params }); }
  function request(method, params, timeoutMs) {
    var id = 'host-' + state.nextId++;
    record('host', method, params);
    post({ jsonrpc: '2.0', id: id, method: method, params: params });
    return new Promise(function (resolve) {
      var timer = setTimeout(function () { delete state.pending[id]; resolve(undefined); }, timeoutMs);
      state.pending[id] = function (answer) { clearTimeout(timer); resolve(answer); };
    });
  }

  function dimensions() {
    if (state.mode === 'inline') return { maxWidth: byId('stage').clientWidth };
    return { width: state.frame ? state.frame.clientWidth : window.innerWidth, height: state.frame ? state.frame.clientHeight : window.innerHeight };
  }
  function hostContext() {
    var tool = state.tool ? state.toolDefs[state.tool.name] || { name: state.tool.name } : undefined;
    return {
      theme: state.theme, displayMode: state.mode, availableDisplayModes: MODES.slice(), locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, platform: 'web', containerDimensions: dimensions(),
      toolInfo: tool ? { id: 'preview-' + state.callId, tool: tool } : undefined,
    };
  }
  function changeContext(changed) { notify('ui/notifications/host-context-changed', changed); }

  function setMode(mode) {
    var allowed = MODES.indexOf(mode) >= 0 && (!Array.isArray(state.appModes) || state.appModes.indexOf(mode) >= 0);
    if (!allowed || mode === state.mode) return state.mode;
    state.mode = mode;
    document.body.dataset.mode = mode;
    byId('mode').value = mode;
    changeContext({ displayMode: mode, containerDimensions: dimensions() });
    return mode;
  }

  var answers = {
    'ui/initialize': function (params) {
      state.appModes = params.appCapabilities ? params.appCapabilities.availableDisplayModes : null;
      return {
        protocolVersion: '2026-01-26', hostInfo: { name: 'mcp-gen mock preview', version: '1.0.0' },
        hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
        hostContext: hostContext(),
      };
    },
    'tools/call': function (params) { return rpc('tools/call', params); },
    'resources/read': function (params) { return rpc('resources/read', params); },
    'resources/list': function (params) { return rpc('resources/list', params); },
    'resources/templates/list': function (params) { return rpc('resources/templates/list', params); },
    'ui/open-link': function () { return {}; },
    'ui/message': function () { return {}; },
    'ui/update-model-context': function (params) { byId('context').textContent = JSON.stringify(params, null, 2); return {}; },
    'ui/request-display-mode': function (params) { return { mode: setMode(params.mode) }; },
    ping: function () { return {}; },
  };

  async function answer(id, method, params) {
    var handler = answers[method];
    if (!handler) { post({ jsonrpc: '2.0', id: id, error: { code: -32601, message: 'Method not found: ' + method } }); return; }
    try {
      var result = await handler(params);
      if (method === 'tools/call') record('host', 'tools/call (answer)', result);
      post({ jsonrpc: '2.0', id: id, result: result });
    } catch (error) {
      record('host', method + ' (error)', { code: error.code, message: error.message });
      post({ jsonrpc: '2.0', id: id, error: { code: typeof error.code === 'number' ? error.code : -32603, message: error.message, data: error.data } });
    }
  }

  function heard(method, params) {
    if (method === 'ui/notifications/initialized') void playCall();
    if (method === 'ui/notifications/size-changed' && state.frame && state.mode === 'inline' && typeof params.height === 'number') state.frame.style.height = Math.max(40, Math.ceil(params.height)) + 'px';
  }

  window.addEventListener('message', function (event) {
    if (!state.frame || event.source !== state.frame.contentWindow) return;
    var message = event.data;
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
    if (typeof message.method === 'string') {
      var params = message.params && typeof message.params === 'object' ? message.params : {};
      record('view', message.method, params);
      if (message.id === undefined) heard(message.method, params);
      else void answer(message.id, message.method, params);
      return;
    }
    var waiting = state.pending[message.id];
    if (waiting) { delete state.pending[message.id]; waiting(message); }
  });

  /** The tool call a host makes before showing its result: partial input, input, then the result. */
  async function playCall() {
    if (!state.tool) return;
    var args;
    try { args = JSON.parse(byId('input').value); } catch (error) { record('host', 'error', 'the tool input is not JSON: ' + error.message); return; }
    // As if the model were still writing the arguments: every member but the last.
    if (args && typeof args === 'object' && !Array.isArray(args)) {
      var partial = {};
      Object.keys(args).slice(0, -1).forEach(function (key) { partial[key] = args[key]; });
      notify('ui/notifications/tool-input-partial', { arguments: partial });
    }
    notify('ui/notifications/tool-input', { arguments: args });
    var result;
    try { result = await rpc('tools/call', { name: state.tool.name, arguments: args }); }
    catch (error) { result = { isError: true, content: [{ type: 'text', text: error.message }] }; }
    notify('ui/notifications/tool-result', result);
  }

  function withPolicy(html, ui) {
    var csp = ui.csp || {};
    var list = function (key, otherwise) { return Array.isArray(csp[key]) && csp[key].length > 0 ? csp[key].join(' ') : otherwise; };
    var resources = list('resourceDomains', '');
    var policy = [
      "default-src 'none'", "script-src 'self' 'unsafe-inline' " + resources, "style-src 'self' 'unsafe-inline' " + resources,
      "img-src 'self' data: " + resources, "font-src 'self' data: " + resources, "media-src 'self' data: " + resources,
      'connect-src ' + list('connectDomains', "'none'"), 'frame-src ' + list('frameDomains', "'none'"), 'base-uri ' + list('baseUriDomains', "'self'"),
    ].join('; ').replace(/[&"<>]/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
    var tag = '<meta http-equiv="Content-Security-Policy" content="' + policy + '">';
    var head = /<head[^>]*>/i.exec(html);
    return head ? html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length) : tag + html;
  }

  async function showView() {
    if (state.frame) { await request('ui/resource-teardown', { reason: 'the preview reloads the view' }, 2000); state.frame.remove(); state.frame = null; }
    if (!state.view) { record('host', 'error', 'the server links no tool to a view'); return; }
    var read = await rpc('resources/read', { uri: state.view.uri });
    var content = read.contents && read.contents[0];
    if (!content || typeof content.text !== 'string') throw new Error(state.view.uri + ' has no text to show');
    record('host', 'resources/read (answer)', { uri: content.uri, mimeType: content.mimeType, _meta: content._meta });
    var ui = content._meta && content._meta.ui ? content._meta.ui : {};
    var frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('allow', Object.keys(ui.permissions || {}).filter(function (p) { return PERMISSIONS[p]; }).map(function (p) { return PERMISSIONS[p]; }).join('; '));
    frame.title = state.view.title;
    frame.className = ui.prefersBorder === false ? 'borderless' : '';
    state.callId += 1;
    state.appModes = null;
    frame.srcdoc = withPolicy(content.text, ui);
    state.frame = frame;
    byId('stage').append(frame);
    document.body.dataset.ready = 'yes';
  }

  function chooseTool(name) {
    state.tool = state.view ? state.view.tools.find(function (t) { return t.name === name; }) || state.view.tools[0] || null : null;
    byId('input').value = state.tool ? JSON.stringify(state.tool.input, null, 2) : '';
  }
  function fill(select, items, label) {
    select.replaceChildren.apply(select, items.map(function (item) { var option = document.createElement('option'); option.value = item.uri || item.name; option.textContent = label(item); return option; }));
  }
  function chooseView(uri, toolName) {
    state.view = state.views.find(function (v) { return v.uri === uri; }) || state.views[0] || null;
    fill(byId('tool'), state.view ? state.view.tools : [], function (t) { return t.title ? t.title + ' (' + t.name + ')' : t.name; });
    chooseTool(toolName);
    if (state.view) { byId('view').value = state.view.uri; if (state.tool) byId('tool').value = state.tool.name; }
  }

  async function start() {
    var data = await (await fetch('/api/views')).json();
    byId('server').textContent = data.server + ' \u2014 seed ' + data.seed;
    state.views = data.views;
    var listed = await rpc('tools/list', {});
    (listed.tools || []).forEach(function (tool) { state.toolDefs[tool.name] = tool; });
    fill(byId('view'), state.views, function (v) { return v.title + ' (' + v.uri + ')'; });
    var query = new URLSearchParams(location.search);
    chooseView(query.get('view'), query.get('tool'));
    byId('view').onchange = function () { chooseView(byId('view').value, null); void showView().catch(failed); };
    byId('tool').onchange = function () { chooseTool(byId('tool').value); void showView().catch(failed); };
    byId('reload').onclick = function () { void showView().catch(failed); };
    byId('call').onclick = function () { void playCall(); };
    byId('cancel').onclick = function () { notify('ui/notifications/tool-cancelled', { reason: 'cancelled in the preview' }); };
    byId('theme').onclick = function () { state.theme = state.theme === 'light' ? 'dark' : 'light'; document.body.dataset.theme = state.theme; changeContext({ theme: state.theme }); };
    byId('mode').onchange = function () { setMode(byId('mode').value); };
    await showView();
  }
  function failed(error) { record('host', 'error', String(error && error.message || error)); document.body.dataset.ready = 'error'; }
  start().catch(failed);
})();
`;
