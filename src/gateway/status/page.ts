/**
 * H3 — the status page: one static HTML document, no dependencies. Its script polls
 * `status.json` and runs searches against `status/search`, sending the bearer token the user typed
 * (kept in sessionStorage only). Every value from the server goes in with `textContent`: server
 * names, error lines and tool descriptions are third-party text.
 */
export function statusPageHtml(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolsearch status</title>
<style nonce="${nonce}">
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; background: #fafafa; }
  h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
  h2 { font-size: 1.05rem; margin: 1.4rem 0 .5rem; }
  .muted { color: #666; }
  .cards { display: flex; gap: .8rem; flex-wrap: wrap; }
  .card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .6rem .9rem; min-width: 9rem; }
  .card b { display: block; font-size: 1.25rem; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e5e5e5; vertical-align: top; }
  /* Long third-party text (queries, tool names, errors, paths) wraps anywhere; short cells keep their words. */
  td { overflow-wrap: break-word; }
  td.wrap, pre, code, li, #meta, #config, .error { overflow-wrap: anywhere; }
  td.num, td.when, .state { white-space: nowrap; }
  th { background: #f0f0f0; font-weight: 600; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  .state { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-weight: 600; font-size: .85rem; }
  .state-connected { background: #d9f2df; color: #13622b; }
  .state-connecting { background: #fff1c2; color: #7a5a00; }
  .state-installing { background: #dcebfb; color: #1d4f86; }
  .state-failed { background: #fbd9d7; color: #9b1c13; }
  .state-quarantined { background: #ead7f7; color: #5b2283; }
  .state-needs-sign-in { background: #fff1c2; color: #6b4e00; }
  .state-closed { background: #e5e5e5; color: #444; }
  .error { color: #9b1c13; font-family: ui-monospace, monospace; font-size: .85rem; word-break: break-word; }
  form { display: flex; gap: .5rem; }
  input[type=search], input[type=password] { flex: 1; padding: .4rem .6rem; font-size: 1rem; border: 1px solid #bbb; border-radius: 4px; }
  button { padding: .4rem .9rem; font-size: 1rem; }
  ol#hits { padding-left: 1.4rem; }
  ol#hits li { margin-bottom: .6rem; background: #fff; border: 1px solid #e5e5e5; border-radius: 6px; padding: .4rem .7rem; }
  pre { margin: .3rem 0 0; white-space: pre-wrap; font-size: .8rem; color: #333; }
  #config { margin: .4rem 0 1rem; }
  #config.refused { background: #fbd9d7; border: 1px solid #e08b84; padding: .5rem .7rem; border-radius: 6px; }
  .miss { background: #fbd9d7; color: #9b1c13; } .unused { background: #fff1c2; color: #7a5a00; } .used { background: #d9f2df; color: #13622b; }
  .miss, .unused, .used { white-space: nowrap; }
  .hidden { display: none; }
  #auth { display: none; background: #fff7e0; border: 1px solid #e7c75f; padding: .6rem; border-radius: 6px; margin-bottom: 1rem; }
  /* A narrow window: each table row becomes a small card of "column: value" lines. */
  @media (max-width: 720px) {
    body { margin: .8rem; }
    table thead { display: none; }
    table, tbody, tr, td { display: block; width: auto; }
    tr { border-bottom: 1px solid #ddd; padding: .3rem 0; }
    td, td.num { border: 0; padding: .1rem .6rem; text-align: left; }
    td:empty { display: none; }
    td::before { content: attr(data-label) ": "; color: #666; }
  }
</style>
</head>
<body>
<h1>toolsearch gateway</h1>
<div class="muted" id="meta">loading…</div>
<div class="muted" id="config"></div>
<div id="auth">
  <p>This gateway needs its bearer token (the same as for <code>/mcp</code>).</p>
  <form id="auth-form"><input type="password" id="token" placeholder="token" autocomplete="off"><button>Use token</button></form>
</div>
<div class="cards" id="cards"></div>
<h2>Servers</h2>
<table id="servers">
  <thead><tr><th>server</th><th>state</th><th>tools</th><th>resources</th><th>prompts</th><th>reconnects</th><th>calls</th><th>p50 ms</th><th>p99 ms</th><th>last error</th></tr></thead>
  <tbody></tbody>
</table>
<h2>What the model searched</h2>
<p class="muted">Recent tool_search queries, misses first: nothing found, then found but not called. A miss is a tool description to fix.</p>
<table id="searches">
  <thead><tr><th>query</th><th>outcome</th><th>found</th><th>called</th><th>when</th></tr></thead>
  <tbody></tbody>
</table>
<div id="profiles-panel" class="hidden">
<h2>Profiles</h2>
<table id="profiles">
  <thead><tr><th>profile</th><th>endpoint</th><th>servers</th><th>tools</th><th>sessions</th></tr></thead>
  <tbody></tbody>
</table>
</div>
<div id="held-panel" class="hidden">
<h2>Held tools</h2>
<p class="muted">Not announced, found or callable until approved: review each change, then run its command.</p>
<ol id="held"></ol>
</div>
<h2>Search</h2>
<form id="search-form"><input type="search" id="query" placeholder="what the model would ask for, e.g. read a file" autocomplete="off"><button>Search</button></form>
<p class="muted" id="search-meta"></p>
<ol id="hits"></ol>
<script nonce="${nonce}">
(() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
  const tokenKey = 'toolsearch-token';
  async function get(path) {
    const token = sessionStorage.getItem(tokenKey);
    const response = await fetch(path, { headers: token ? { authorization: 'Bearer ' + token } : {} });
    if (response.status === 401) { $('auth').style.display = 'block'; throw new Error('a bearer token is needed'); }
    if (!response.ok) throw new Error(path + ': HTTP ' + response.status);
    $('auth').style.display = 'none';
    return response.json();
  }
  // Each cell knows its column's name: a narrow window shows it beside the value.
  function labelled(table, rows) {
    const names = [...table.tHead.rows[0].cells].map((th) => th.textContent);
    for (const row of rows) [...row.cells].forEach((td, i) => { td.dataset.label = names[i] ?? ''; });
    table.tBodies[0].replaceChildren(...rows);
  }
  function card(label, value) { const c = el('div', undefined, 'card'); c.append(el('b', value), el('span', label, 'muted')); return c; }
  function render(s) {
    $('meta').textContent = 'version ' + s.version + ' · up ' + s.uptimeSeconds + ' s · refreshed ' + new Date().toLocaleTimeString();
    const pct = s.tokens.eager > 0 ? Math.round(100 * s.tokens.savedPerRequest / s.tokens.eager) : 0;
    $('cards').replaceChildren(
      card('servers connected', s.states.connected + ' / ' + s.servers.length),
      card('tools (' + s.tools.deferred + ' deferred)', s.tools.total),
      card('sessions', s.sessions),
      card('tokens saved per request (' + pct + '%)', s.tokens.savedPerRequest.toLocaleString('en-US')),
      ...(s.tokens.savedTotal !== undefined ? [card('tokens saved since start', s.tokens.savedTotal.toLocaleString('en-US'))] : []),
      card('tokens per request: eager → deferred', s.tokens.eager.toLocaleString('en-US') + ' → ' + s.tokens.deferred.toLocaleString('en-US')),
    );
    $('cards').title = s.tokens.counted;
    const calls = Object.fromEntries((s.calls ?? []).map((c) => [c.server, c]));
    const rows = s.servers.map((server) => {
      const c = calls[server.server];
      const tr = el('tr');
      tr.dataset.server = server.server;
      tr.dataset.state = server.state;
      const retry = server.nextRetryAt ? ' (next try in ' + Math.max(0, Math.round((server.nextRetryAt - Date.now()) / 1000)) + ' s)' : '';
      const installing = server.state === 'installing' ? 'installing through ' + (server.runner || 'a package runner') + ' (' + Math.max(0, Math.round((Date.now() - server.since) / 1000)) + ' s so far)' : '';
      const state = el('td'); state.append(el('span', server.state.replaceAll('-', ' '), 'state state-' + server.state));
      tr.append(el('td', server.server), state, el('td', server.tools, 'num'), el('td', server.resources ?? 0, 'num'), el('td', server.prompts ?? 0, 'num'),
        el('td', server.reconnects, 'num'), el('td', c ? c.calls + (c.errors ? ' (' + c.errors + ' failed)' : '') : 0, 'num calls'),
        el('td', c ? c.p50Ms : '', 'num'), el('td', c ? c.p99Ms : '', 'num'), el('td', installing || (server.lastError ?? '') + retry, 'error'));
      return tr;
    });
    labelled($('servers'), rows);
    const searches = (s.searches ?? []).map((search) => {
      const tr = el('tr');
      const kind = search.resultCount === 0 ? 'miss' : search.followed ? 'used' : 'unused';
      tr.dataset.outcome = kind;
      const label = { miss: 'nothing found', unused: 'found, not called', used: 'found and called' }[kind];
      const outcome = el('td'); outcome.append(el('span', label + (search.lowConfidence ? ' · low confidence' : ''), 'state ' + kind));
      tr.append(el('td', search.query, 'wrap'), outcome, el('td', search.matches.join(', ') + (search.resultCount > search.matches.length ? ' …' : ''), 'wrap'),
        el('td', search.calledTool ?? ''), el('td', new Date(search.time).toLocaleTimeString(), 'muted when'));
      return tr;
    });
    labelled($('searches'), searches);
    $('profiles-panel').className = s.profiles && s.profiles.length ? '' : 'hidden';
    labelled($('profiles'), (s.profiles ?? []).map((p) => {
      const tr = el('tr');
      tr.dataset.profile = p.name;
      tr.append(el('td', p.name, 'wrap'), el('td', p.path, 'wrap'), el('td', p.servers.join(', '), 'wrap'), el('td', p.tools, 'num'), el('td', p.sessions, 'num'));
      return tr;
    }));
    $('held-panel').className = s.held && s.held.length ? '' : 'hidden';
    $('held').replaceChildren(...(s.held ?? []).map((h) => {
      const li = el('li');
      li.dataset.tool = h.server + '/' + h.tool;
      li.append(el('b', h.server + ' / ' + h.tool), el('div', h.why, 'error'), el('pre', h.findings.concat(h.diff).join('\\n')), el('code', h.approve));
      return li;
    }), ...(s.held && s.heldTotal > s.held.length ? [el('li', (s.heldTotal - s.held.length) + ' more held: toolsearch tools --held lists them all', 'muted')] : []));
    renderConfig(s.config);
  }
  function renderConfig(config) {
    const box = $('config');
    box.className = 'muted';
    if (!config) { box.textContent = ''; return; }
    const last = config.lastReload;
    let text = 'config ' + config.source + (config.watching ? ' (watched)' : '');
    if (last && !last.ok) {
      box.className = 'refused';
      text += ' — reload refused at ' + new Date(last.at).toLocaleTimeString() + ', the previous config keeps running: ' + last.error;
    } else if (last) {
      const c = last.changes;
      const parts = [c.added.length && 'added ' + c.added.join(', '), c.removed.length && 'removed ' + c.removed.join(', '), c.changed.length && 'restarted ' + c.changed.join(', ')].filter(Boolean).concat(last.parts || []);
      text += ' — reloaded at ' + new Date(last.at).toLocaleTimeString() + ': ' + (parts.join('; ') || 'no server changed') +
        (last.needsRestart ? ' (toolSearch.' + last.needsRestart.join(', toolSearch.') + ' applies on restart)' : '');
    }
    box.textContent = text;
  }
  async function refresh() { try { render(await get('status.json')); } catch (error) { $('meta').textContent = String(error.message || error); } }
  $('auth-form').addEventListener('submit', (event) => { event.preventDefault(); sessionStorage.setItem(tokenKey, $('token').value); refresh(); });
  $('search-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const q = $('query').value.trim();
    if (!q) return;
    try {
      const answer = await get('status/search?q=' + encodeURIComponent(q));
      $('search-meta').textContent = answer.hits.length + ' of ' + answer.totalDeferred + (answer.totalDeferred === 1 ? ' deferred tool (' : ' deferred tools (') + answer.kind + (answer.lowConfidence ? ', low confidence' : '') + ')' +
        (answer.pendingServers.length ? ' · still connecting: ' + answer.pendingServers.join(', ') : '') +
        (answer.failedServers.length ? ' · failed: ' + answer.failedServers.map((f) => f.server).join(', ') : '');
      $('hits').replaceChildren(...answer.hits.map((hit) => {
        const li = el('li');
        li.append(el('b', hit.name), el('span', hit.server ? '  · ' + hit.server : '', 'muted'), el('div', hit.description, 'muted'), el('pre', hit.explanation.join('\\n')));
        return li;
      }));
    } catch (error) { $('search-meta').textContent = String(error.message || error); }
  });
  refresh();
  setInterval(refresh, 3000);
})();
</script>
</body>
</html>
`;
}
