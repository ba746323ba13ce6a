// The page of `gametree serve` (see docs/serve.md for the JSON API it talks to).
//
// One file, no framework and no build step: the binary embeds it with include_str!, the
// page must work offline, and the server's Content-Security-Policy (default-src 'self')
// rules out inline scripts and style attributes, so every style comes from style.css
// classes or from element.style set here.
//
// Parts: helpers and the API call; theme and tabs; the tree inspector (TreeView draws one
// search and replays its events, TreeInspector owns the controls and the shared stepping;
// openInInspector takes a game's last choice there); tic-tac-toe; Connect Four; Kalah;
// checkers.
'use strict';

// ---------------------------------------------------------------- helpers

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
const SVG_NS = 'http://www.w3.org/2000/svg';

/** An HTML element with attributes (`class`, `text`, data-*, anything else) and children. */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children) {
    node.append(child);
  }
  return node;
}

/** An SVG element: SVG needs createElementNS, or the browser makes inert HTML elements. */
function s(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
}

/**
 * A number as a person reads it: a real minus sign (it stays visible on a projector), at
 * most three decimals (m&n values are real numbers), and ∞ for the null that JSON uses for
 * an infinite window end (`side` says which infinity).
 */
function fmt(value, side = '+') {
  if (value === null || value === undefined) return side === '-' ? '−∞' : '∞';
  if (typeof value !== 'number') return String(value);
  const rounded = Math.round(value * 1000) / 1000;
  const text = String(Math.abs(rounded));
  return rounded < 0 ? '−' + text : text;
}

/** A path of moves from the root as the status line shows it. */
function pathText(path) {
  return path.length === 0 ? 'the root' : '[' + path.join(',') + ']';
}

/** The key of a path: the `data-path` attribute of its SVG node ("" for the root). */
const keyOf = (path) => path.join('.');
const parentKey = (key) => (key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '');

/** Inputs whose own keys (arrows, space, digits, t) must not trigger the page's shortcuts. */
function isTyping(target) {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable ||
    (tag === 'INPUT' && !['checkbox', 'radio', 'button'].includes(target.type));
}

/** A number from an input, `fallback` when blank; throws a readable error otherwise. */
function numberInput(id, fallback) {
  const raw = $('#' + id).value.trim();
  if (raw === '') return fallback;
  const value = Number(raw.replace('−', '-'));
  if (!Number.isFinite(value)) throw new Error(`${$('#' + id).closest('label')?.textContent.trim() || id}: "${raw}" is not a number`);
  return value;
}

// ---------------------------------------------------------------- errors and the API

const errorBox = $('#error');

function showError(message) {
  $('#error-text').textContent = message;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.hidden = true;
  $('#error-text').textContent = '';
}

$('#error-close').addEventListener('click', clearError);

/**
 * POST a JSON body and return the parsed answer. A 4xx/5xx answer carries
 * `{"error": ...}`: that message is what the person needs to see (it says what and where),
 * so it becomes the Error's message.
 */
async function api(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    // Stopped on purpose: the server sees the request go away and stops its search.
    if (err.name === 'AbortError') throw new Stopped();
    throw new Error(`cannot reach the server (${err.message}): is gametree serve still running?`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // A non-JSON answer: reported below by its status.
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `HTTP ${response.status} ${response.statusText}`;
    const prefix = response.status === 503 ? 'The server is busy (try again): ' : '';
    throw new Error(prefix + message);
  }
  if (data === null) throw new Error(`${path}: the server's answer is not JSON`);
  return data;
}

/** A request the person stopped (the Stop button): not an error to show. */
class Stopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'Stopped';
  }
}

/**
 * Runs an action that talks to the server: marks `panel` busy (CSS dims it, its inputs are
 * disabled so a second click cannot interleave two games), says "thinking…" in `statusEl`,
 * and turns a failure into the red error box. Returns the action's result, or undefined
 * after a failure.
 */
async function busy(panel, statusEl, action) {
  clearError();
  panel.classList.add('busy');
  // A control marked data-always (a Stop button) stays usable while the request runs.
  const controls = $$('button, input, select, textarea', panel).filter((c) => !c.disabled && !c.hasAttribute('data-always'));
  controls.forEach((c) => { c.disabled = true; });
  const before = statusEl ? statusEl.textContent : '';
  if (statusEl) statusEl.textContent = 'thinking…';
  try {
    return await action();
  } catch (err) {
    if (statusEl && statusEl.textContent === 'thinking…') statusEl.textContent = before;
    if (!(err instanceof Stopped)) showError(err.message);
    return undefined;
  } finally {
    controls.forEach((c) => { c.disabled = false; });
    panel.classList.remove('busy');
  }
}

// ---------------------------------------------------------------- theme

// The theme is the `data-theme` attribute on <html> (style.css swaps its colour variables
// on it): the stored choice, or else the system's prefers-color-scheme.
const THEME_KEY = 'gametree-theme';

function currentTheme() {
  return document.documentElement.dataset.theme ||
    (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

function setTheme(theme, remember) {
  document.documentElement.dataset.theme = theme;
  if (remember) {
    try { localStorage.setItem(THEME_KEY, theme); } catch { /* private mode: not remembered */ }
  }
}

(function initTheme() {
  let stored = null;
  try { stored = localStorage.getItem(THEME_KEY); } catch { /* no storage */ }
  setTheme(stored === 'dark' || stored === 'light' ? stored : currentTheme(), false);
  $('#theme-toggle').addEventListener('click', () => {
    setTheme(currentTheme() === 'dark' ? 'light' : 'dark', true);
  });
})();

// ---------------------------------------------------------------- tabs

const TABS = ['tree', 'ttt', 'c4', 'kalah', 'checkers'];
let activeTab = 'tree';
const tabShownHooks = {};

function showTab(name) {
  if (!TABS.includes(name)) name = 'tree';
  activeTab = name;
  for (const tab of TABS) {
    const selected = tab === name;
    $('#tab-' + tab).setAttribute('aria-selected', String(selected));
    $('#tab-' + tab).classList.toggle('active', selected);
    $('#panel-' + tab).hidden = !selected;
  }
  if (location.hash !== '#' + name) history.replaceState(null, '', '#' + name);
  if (tabShownHooks[name]) tabShownHooks[name]();
}

for (const tab of TABS) {
  $('#tab-' + tab).addEventListener('click', () => showTab(tab));
}

// Keys that belong to the page as a whole; each part adds its own in its keydown hook.
const tabKeyHooks = {};
document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
  if (event.key === 't' || event.key === 'T') {
    $('#theme-toggle').click();
    event.preventDefault();
    return;
  }
  const hook = tabKeyHooks[activeTab];
  if (hook && hook(event)) event.preventDefault();
});
// A focused button is clicked by the browser on space's keyup; when the page used the space
// (play / pause), that click must not happen too.
document.addEventListener('keyup', (event) => {
  if (event.key === ' ' && activeTab === 'tree' && event.target instanceof HTMLButtonElement) {
    event.preventDefault();
  }
});

// ================================================================ tree inspector

// The layout's unit lengths, in SVG user units (the viewBox maps them to pixels).
const LEAF_GAP = 46;   // between neighbouring leaves
const LEVEL_GAP = 78;  // between plies
const NODE_R = 17;     // half the size of a node's shape

// Trees with more leaves than this open with their deeper levels folded, so that the first
// picture shows something readable; "unfold" shows them all.
const FOLD_OVER_LEAVES = 160;

/**
 * One search drawn as a tree and replayed event by event. It keeps the SVG elements of the
 * visible nodes and, on each step, recomputes the state of the search from the events up to
 * that step (cheap: a few thousand events at most) and sets classes and texts.
 */
class TreeView {
  constructor(number) {
    // The first view's ids have no suffix (the tests' main hooks), the second's end in -2.
    const suffix = number === 1 ? '' : '-' + number;
    const id = (base) => '#' + base + suffix;
    this.root = $('#view-' + number);
    this.svg = $('#svg-' + number);
    this.titleEl = $(id('view-title'));
    this.statusEl = $(id('status'));
    this.leafCountEl = $(id('leaf-count'));
    this.valueEl = $(id('result-value'));
    this.resultEl = $(id('result'));
    this.logEl = $(id('log'));
    this.result = null;
    this.step = 0;
    this.collapsed = new Set();
    this.vb = { x: 0, y: 0, scale: 1 };
    this.setUpPanZoom();
    this.logEl.addEventListener('click', (event) => {
      const item = event.target.closest('li[data-step]');
      if (item && this.onPickStep) this.onPickStep(Number(item.dataset.step));
    });
    $('.zoom-in', this.root).addEventListener('click', () => this.zoomBy(1 / 1.4));
    $('.zoom-out', this.root).addEventListener('click', () => this.zoomBy(1.4));
    $('.zoom-fit', this.root).addEventListener('click', () => this.fit());
    $('.expand-all', this.root).addEventListener('click', () => {
      this.collapsed.clear();
      this.redraw(true);
    });
  }

  get events() {
    return this.result ? this.result.events : [];
  }

  /** A new search result: index its tree, fold big trees, draw, fit and show step 0. */
  load(result) {
    this.result = result;
    this.index = new Map();
    // Index the tree iteratively: a 5,000-node tree may be a 5,000-deep chain.
    const stack = [{ node: result.root, depth: 0 }];
    this.preorder = [];
    while (stack.length) {
      const { node, depth } = stack.pop();
      const key = keyOf(node.path);
      const children = (node.children || []).map((c) => keyOf(c.path));
      this.index.set(key, { key, node, depth, children, leaves: 0, leaf: !node.children });
      this.preorder.push(key);
      const kids = node.children || [];
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], depth: depth + 1 });
    }
    // Leaves under each node, for the marker of a folded node.
    for (let i = this.preorder.length - 1; i >= 0; i--) {
      const info = this.index.get(this.preorder[i]);
      info.leaves = info.leaf ? 1 : info.children.reduce((n, c) => n + this.index.get(c).leaves, 0);
    }
    this.collapsed = new Set();
    const rootInfo = this.index.get('');
    if (rootInfo.leaves > FOLD_OVER_LEAVES) this.foldDeepLevels();
    this.titleEl.textContent = ALGORITHM_NAMES[result.algorithm] || result.algorithm;
    this.buildLog();
    this.step = 0;
    this.redraw(true);
  }

  /** Folds every inner node at the deepest ply that still shows at most ~64 nodes. */
  foldDeepLevels() {
    const perDepth = [];
    for (const info of this.index.values()) perDepth[info.depth] = (perDepth[info.depth] || 0) + 1;
    let depth = 0;
    while (depth + 1 < perDepth.length && perDepth[depth + 1] <= 64) depth++;
    for (const info of this.index.values()) {
      if (info.depth === depth && !info.leaf) this.collapsed.add(info.key);
    }
  }

  /** Positions of the visible nodes: leaves evenly spaced, parents centred over children. */
  layout() {
    this.pos = new Map();
    this.visible = [];
    const stack = [''];
    let slot = 0;
    while (stack.length) {
      const key = stack.pop();
      const info = this.index.get(key);
      this.visible.push(key);
      const folded = this.collapsed.has(key);
      if (info.leaf || folded) {
        this.pos.set(key, { x: slot * LEAF_GAP, y: info.depth * LEVEL_GAP });
        slot++;
      } else {
        for (let i = info.children.length - 1; i >= 0; i--) stack.push(info.children[i]);
      }
    }
    // Children come after their parent in preorder, so the reverse order places them first.
    for (let i = this.visible.length - 1; i >= 0; i--) {
      const key = this.visible[i];
      if (this.pos.has(key)) continue;
      const info = this.index.get(key);
      const first = this.pos.get(info.children[0]);
      const last = this.pos.get(info.children[info.children.length - 1]);
      this.pos.set(key, { x: (first.x + last.x) / 2, y: info.depth * LEVEL_GAP });
    }
    let maxX = 0;
    let maxDepth = 0;
    for (const key of this.visible) {
      maxX = Math.max(maxX, this.pos.get(key).x);
      maxDepth = Math.max(maxDepth, this.index.get(key).depth);
    }
    this.bounds = { minX: -LEAF_GAP - 40, maxX: maxX + LEAF_GAP, minY: -NODE_R - 24, maxY: maxDepth * LEVEL_GAP + NODE_R + 30, maxDepth };
  }

  /** Rebuilds the SVG (after a load or a fold); `refit` re-centres the view. */
  redraw(refit) {
    this.layout();
    const svg = this.svg;
    svg.replaceChildren();
    const plies = s('g', { class: 'plies' });
    const edges = s('g', { class: 'edges' });
    const nodes = s('g', { class: 'nodes' });
    svg.append(plies, edges, nodes);
    for (let d = 0; d <= this.bounds.maxDepth; d++) {
      plies.append(s('text', { x: this.bounds.minX + 8, y: d * LEVEL_GAP + 5, class: 'ply-label', text: d % 2 === 0 ? 'MAX' : 'MIN' }));
    }
    this.nodeEls = new Map();
    this.edgeEls = new Map();
    for (const key of this.visible) {
      const info = this.index.get(key);
      const { x, y } = this.pos.get(key);
      if (key !== '') {
        const p = this.pos.get(parentKey(key));
        const edge = s('line', { x1: p.x, y1: p.y + NODE_R, x2: x, y2: y - NODE_R, class: 'edge', 'data-path': key });
        edges.append(edge);
        this.edgeEls.set(key, edge);
        // The move number on the edge, as the paths in the status line count them.
        const move = key.slice(key.lastIndexOf('.') + 1);
        edges.append(s('text', { x: (p.x + x) / 2 + (x < p.x ? -7 : x > p.x ? 7 : 7), y: (p.y + y) / 2 + 2, class: 'move-label', text: move }));
      }
      const max = info.depth % 2 === 0;
      const g = s('g', {
        class: 'node ' + (max ? 'max' : 'min') + (info.leaf ? ' leaf' : ' inner'),
        'data-path': key,
        transform: `translate(${x},${y})`,
      });
      g.append(max
        ? s('rect', { x: -NODE_R, y: -NODE_R, width: 2 * NODE_R, height: 2 * NODE_R, rx: 4, class: 'shape' })
        : s('circle', { r: NODE_R + 1, class: 'shape' }));
      const value = s('text', { class: 'value', y: 5, text: info.leaf ? fmt(info.node.value) : '' });
      const windowText = s('text', { class: 'window', x: NODE_R + 5, y: -3 });
      const alpha = s('tspan', { x: NODE_R + 5 });
      const beta = s('tspan', { x: NODE_R + 5, dy: 13 });
      windowText.append(alpha, beta);
      const title = s('title');
      g.append(value, windowText, title);
      if (this.collapsed.has(key)) {
        g.classList.add('collapsed');
        g.append(s('text', { class: 'fold-marker', y: NODE_R + 17, text: `+${info.leaves}` }));
        title.textContent = `folded: ${info.leaves} leaves hidden (click to unfold)`;
      }
      nodes.append(g);
      this.nodeEls.set(key, { g, value, windowText, alpha, beta, title });
    }
    if (refit || !this.fitted) this.fit();
    else this.applyViewBox();
    this.show(this.step);
  }

  // ------------------------------------------------------------ replaying the events

  /**
   * The state of the search after `step` events: which nodes were entered and left, the
   * window (α, β) of each entered node, the values backed up, the leaves evaluated and the
   * moves cut off.
   */
  stateAt(step) {
    const events = this.events;
    const st = {
      entered: new Set(), left: new Map(), windows: new Map(), evaluated: new Set(),
      cutRoots: new Map(), leaves: 0, current: null,
    };
    const windowed = this.result && this.result.algorithm === 'alphabeta';
    for (let i = 0; i < step && i < events.length; i++) {
      const ev = events[i];
      const key = keyOf(ev.path);
      if (ev.kind === 'enter') {
        st.entered.add(key);
        if ('alpha' in ev || 'beta' in ev) st.windows.set(key, { alpha: ev.alpha ?? null, beta: ev.beta ?? null });
      } else if (ev.kind === 'leaf') {
        st.evaluated.add(key);
        st.leaves++;
      } else if (ev.kind === 'leave') {
        st.left.set(key, ev.value);
        // Alpha-beta narrows the parent's window with each value backed up: MAX raises α,
        // MIN lowers β. The next child's `enter` carries the same window; showing it as
        // soon as the value comes back is the moment the students should see it change.
        if (windowed && ev.path.length > 0) {
          const pk = parentKey(key);
          const w = st.windows.get(pk);
          if (w && typeof ev.value === 'number') {
            const parentIsMax = (ev.path.length - 1) % 2 === 0;
            const next = { ...w };
            if (parentIsMax && (w.alpha === null || ev.value > w.alpha)) next.alpha = ev.value;
            if (!parentIsMax && (w.beta === null || ev.value < w.beta)) next.beta = ev.value;
            st.windows.set(pk, next);
          }
        }
      } else if (ev.kind === 'cutoff') {
        for (const move of ev.moves || []) st.cutRoots.set(keyOf([...ev.path, move]), ev.reason || '');
      }
      if (i === step - 1) st.current = key;
    }
    return st;
  }

  /** The node drawn for `key`: itself, or the folded ancestor that hides it. */
  shownAs(key) {
    // Only visible nodes have elements, and a folded node is the deepest visible one on
    // its branch: the first ancestor with an element is the one to highlight.
    let k = key;
    while (!this.nodeEls.has(k) && k !== '') k = parentKey(k);
    return k;
  }

  /** Shows the search after `step` events (clamped to this search's length). */
  show(step) {
    if (!this.result) return;
    const events = this.events;
    step = Math.max(0, Math.min(step, events.length));
    this.step = step;
    const st = this.stateAt(step);
    const finished = step === events.length;
    const onLine = new Set();
    const inProof = new Set();
    if (finished) {
      const line = this.result.principal_line || [];
      for (let i = 0; i <= line.length; i++) onLine.add(keyOf(line.slice(0, i)));
      if (line.length === 0) onLine.clear();
      for (const path of this.result.proof || []) inProof.add(keyOf(path));
    }
    // Open nodes: entered and not yet left, i.e. the path from the root to the current node.
    const open = new Set([...st.entered].filter((k) => !st.left.has(k)));
    // Once finished, the root would stay "current" and hide the principal line's colour.
    const currentShown = st.current === null || finished ? null : this.shownAs(st.current);

    for (const key of this.visible) {
      const info = this.index.get(key);
      const el = this.nodeEls.get(key);
      const pk = parentKey(key);
      const cut = st.cutRoots.has(key) || (key !== '' && this.isCut(pk, st));
      const cls = el.g.classList;
      cls.toggle('visited', st.entered.has(key));
      cls.toggle('done', st.left.has(key));
      cls.toggle('open', open.has(key));
      cls.toggle('evaluated', st.evaluated.has(key));
      cls.toggle('cut', cut);
      cls.toggle('cut-root', st.cutRoots.has(key));
      cls.toggle('current', key === currentShown);
      cls.toggle('line', onLine.has(key));
      cls.toggle('proof', inProof.has(key));
      if (!info.leaf) el.value.textContent = st.left.has(key) ? fmt(st.left.get(key)) : '';
      // The window beside the nodes the search is in (the path from the root); those it
      // has left keep theirs only on request, or the picture drowns in numbers.
      const w = st.windows.get(key);
      const showWindow = w && !this.collapsed.has(key) &&
        (open.has(key) ? (!info.leaf || key === st.current) : (!info.leaf && this.allWindows()));
      el.alpha.textContent = showWindow ? 'α=' + fmt(w.alpha, '-') : '';
      el.beta.textContent = showWindow ? 'β=' + fmt(w.beta, '+') : '';
      el.windowText.classList.toggle('stale', Boolean(showWindow && st.left.has(key)));
      if (!this.collapsed.has(key)) {
        const tip = [];
        if (st.cutRoots.has(key)) tip.push('cut off: ' + st.cutRoots.get(key));
        if (w) tip.push(`entered with α=${fmt(w.alpha, '-')}, β=${fmt(w.beta, '+')}`);
        if (st.left.has(key)) tip.push(`backed up ${fmt(st.left.get(key))}`);
        el.title.textContent = `${pathText(info.node.path)}: ` + (tip.join('; ') || (info.leaf ? `leaf ${fmt(info.node.value)}` : 'not searched yet'));
      }
      const edge = this.edgeEls.get(key);
      if (edge) {
        const ecls = edge.classList;
        ecls.toggle('visited', st.entered.has(key));
        ecls.toggle('open', open.has(key) && open.has(pk));
        ecls.toggle('cut', cut);
        ecls.toggle('line', onLine.has(key) && onLine.has(pk));
        ecls.toggle('proof', inProof.has(key) && inProof.has(pk));
      }
    }

    this.leafCountEl.textContent = String(st.leaves);
    this.statusEl.textContent = this.describeStep(step);
    this.statusEl.classList.toggle('cutoff', step > 0 && events[step - 1].kind === 'cutoff');
    const r = this.result;
    this.valueEl.textContent = finished ? fmt(r.value) : '…';
    this.resultEl.hidden = !finished;
    if (finished) {
      const parts = [`value ${fmt(r.value)}`];
      if (r.bound) parts[0] += ` (${r.bound})`;
      parts.push(`leaves ${r.leaves}`, `nodes ${r.nodes}`, `cutoffs ${r.cutoffs}`);
      if (r.best_move !== null && r.best_move !== undefined) parts.push(`best move ${r.best_move}`);
      if (r.principal_line && r.principal_line.length) parts.push(`line ${r.principal_line.join(' ')}`);
      this.resultEl.textContent = parts.join(' · ');
    }
    this.root.classList.toggle('finished', finished);
    this.updateLog(step);
  }

  allWindows() {
    return $('#all-windows').checked;
  }

  /** Whether a node lies in a subtree cut off so far (a cut move's node or below it). */
  isCut(key, st) {
    for (let k = key; ; k = parentKey(k)) {
      if (st.cutRoots.has(k)) return true;
      if (k === '') return false;
    }
  }

  describeStep(step) {
    const events = this.events;
    if (step === 0) {
      return `Before the search: ${events.length} events to step through. Press → or Next.`;
    }
    const text = `${step}. ${describeEvent(events[step - 1])}`;
    if (step < events.length) return text;
    // A window that misses the value only bounds it: say which way.
    const bound = { upper: 'at most ', lower: 'at least ' }[this.result.bound] || '';
    const why = { upper: ' (failed low)', lower: ' (failed high)' }[this.result.bound] || '';
    return `${text}. Finished: the value is ${bound}${fmt(this.result.value)}${why}.`;
  }

  // The event log: one line per event; the future ones greyed, the current one marked.
  buildLog() {
    const items = this.events.map((ev, i) => h('li', {
      'data-step': i + 1,
      class: 'future ev-' + ev.kind,
      text: describeEvent(ev),
    }));
    this.logEl.replaceChildren(...items);
    this.logShown = 0;
  }

  updateLog(step) {
    const items = this.logEl.children;
    const lo = Math.min(step, this.logShown);
    const hi = Math.max(step, this.logShown);
    // Only the items between the old and the new step change class.
    for (let i = Math.max(0, lo - 1); i < hi && i < items.length; i++) {
      items[i].classList.toggle('future', i >= step);
      items[i].classList.remove('now');
    }
    if (step > 0 && items[step - 1]) {
      const item = items[step - 1];
      item.classList.add('now');
      // Scroll the log itself, never the page.
      const box = this.logEl;
      if (item.offsetTop < box.scrollTop || item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = item.offsetTop - box.clientHeight / 2;
      }
    } else {
      this.logEl.scrollTop = 0;
    }
    this.logShown = step;
  }

  // ------------------------------------------------------------ pan and zoom

  // The view is kept as its top-left corner and a scale (user units per CSS pixel); the
  // viewBox is derived from them and the SVG's size, so resizing never distorts the tree.
  applyViewBox() {
    const w = this.svg.clientWidth || 800;
    const hgt = this.svg.clientHeight || 400;
    const { x, y, scale } = this.vb;
    this.svg.setAttribute('viewBox', `${x} ${y} ${w * scale} ${hgt * scale}`);
  }

  fit() {
    const w = this.svg.clientWidth;
    const hgt = this.svg.clientHeight;
    if (!w || !hgt || !this.bounds) {
      this.fitted = false;
      return;
    }
    const b = this.bounds;
    const bw = b.maxX - b.minX;
    const bh = b.maxY - b.minY;
    // Never blow a small tree up past 1.6 times its natural size: huge nodes look wrong.
    const scale = Math.max(bw / w, bh / hgt, 1 / 1.6);
    this.vb = {
      scale,
      x: b.minX - (w * scale - bw) / 2,
      y: b.minY - (hgt * scale - bh) / 2,
    };
    this.fitted = true;
    this.applyViewBox();
  }

  /** Zooms by `factor` (above 1: out) around a point given in CSS pixels of the SVG. */
  zoomBy(factor, px, py) {
    const w = this.svg.clientWidth || 800;
    const hgt = this.svg.clientHeight || 400;
    if (px === undefined) { px = w / 2; py = hgt / 2; }
    const { x, y, scale } = this.vb;
    const next = Math.min(Math.max(scale * factor, 0.05), 500);
    const ux = x + px * scale;
    const uy = y + py * scale;
    this.vb = { scale: next, x: ux - px * next, y: uy - py * next };
    this.applyViewBox();
  }

  setUpPanZoom() {
    const svg = this.svg;
    let drag = null;
    svg.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      drag = { id: event.pointerId, x: event.clientX, y: event.clientY, vx: this.vb.x, vy: this.vb.y, moved: false };
    });
    svg.addEventListener('pointermove', (event) => {
      if (!drag || drag.id !== event.pointerId) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      // A few pixels of jitter is still a click (to fold a node), not a drag.
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      if (!drag.moved) {
        drag.moved = true;
        svg.setPointerCapture(event.pointerId);
        svg.classList.add('dragging');
      }
      this.vb.x = drag.vx - dx * this.vb.scale;
      this.vb.y = drag.vy - dy * this.vb.scale;
      this.applyViewBox();
    });
    const end = (event) => {
      if (!drag || drag.id !== event.pointerId) return;
      const wasDrag = drag.moved;
      drag = null;
      svg.classList.remove('dragging');
      if (event.type === 'pointerup' && !wasDrag) this.clickAt(event.target);
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
    svg.addEventListener('wheel', (event) => {
      event.preventDefault();
      const rect = svg.getBoundingClientRect();
      this.zoomBy(Math.exp(event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
    }, { passive: false });
    new ResizeObserver(() => {
      if (!this.fitted) this.fit();
      else this.applyViewBox();
    }).observe(svg);
  }

  /** A click on an inner node folds or unfolds its subtree. */
  clickAt(target) {
    const g = target instanceof Element ? target.closest('g.node') : null;
    if (!g || g.classList.contains('leaf')) return;
    const key = g.dataset.path;
    if (this.collapsed.has(key)) this.collapsed.delete(key);
    else this.collapsed.add(key);
    // Keep the clicked node where it is on screen: shift the view by how far it moved.
    const before = this.pos.get(key);
    this.redraw(false);
    const after = this.pos.get(key);
    this.vb.x += after.x - before.x;
    this.vb.y += after.y - before.y;
    this.applyViewBox();
  }
}

const ALGORITHM_NAMES = {
  minimax: 'minimax',
  alphabeta: 'alpha-beta',
  'mn-minimax': 'm&n minimaxing',
  'mn-alphabeta': 'm&n alpha-beta',
};

/** One event in words, as the status line and the event log show it. */
function describeEvent(ev) {
  const where = pathText(ev.path || []);
  const side = (ev.path || []).length % 2 === 0 ? 'MAX' : 'MIN';
  switch (ev.kind) {
    case 'enter': {
      const windowText = ('alpha' in ev || 'beta' in ev)
        ? ` with α=${fmt(ev.alpha ?? null, '-')}, β=${fmt(ev.beta ?? null, '+')}` : '';
      return `enter ${where} (${side})${windowText}`;
    }
    case 'leaf':
      return `evaluate leaf ${where}: ${fmt(ev.value)}`;
    case 'leave':
      return ev.path.length === 0
        ? `leave the root with the value ${fmt(ev.value)}`
        : `leave ${where}: back up ${fmt(ev.value)} to ${pathText(ev.path.slice(0, -1))}`;
    case 'cutoff': {
      const moves = ev.moves || [];
      const reason = ev.reason ? `: ${ev.reason}` : '';
      // The test can succeed on the last move, with nothing left to skip: still a cutoff.
      if (moves.length === 0) return `cutoff at ${where} (no moves left to skip)${reason}`;
      const what = moves.length === 1 ? `move ${moves[0]}` : `moves ${moves.join(', ')}`;
      return `cut off ${what} at ${where}${reason}`;
    }
    default:
      return `${ev.kind} ${where}`;
  }
}

/**
 * The controls of the tree inspector and the stepping shared by the one or two views:
 * in compare mode both views show the same step number, each clamped to its own length,
 * so the faster algorithm visibly finishes first.
 */
class TreeInspector {
  constructor() {
    this.views = [new TreeView(1), new TreeView(2)];
    this.step = 0;
    this.timer = null;
    this.panel = $('#panel-tree');
    for (const view of this.views) view.onPickStep = (step) => this.go(step);
    $('#tree-text').value = DEFAULT_TREE;
    $('#run').addEventListener('click', () => this.run());
    $('#random').addEventListener('click', () => this.randomTree());
    $('#algorithm').addEventListener('change', () => this.updateParams());
    $('#algorithm-2').addEventListener('change', () => this.updateParams());
    $('#compare').addEventListener('change', () => this.updateParams());
    $('#all-windows').addEventListener('change', () => this.go(this.step));
    $('#first').addEventListener('click', () => this.go(0));
    $('#prev').addEventListener('click', () => this.go(this.step - 1));
    $('#next').addEventListener('click', () => this.go(this.step + 1));
    $('#last').addEventListener('click', () => this.go(this.maxStep()));
    $('#play').addEventListener('click', () => this.togglePlay());
    // On a projector every pixel counts: the controls column can be folded away.
    $('#toggle-controls').addEventListener('click', () => {
      const wide = $('.tree-layout').classList.toggle('wide');
      $('#toggle-controls').setAttribute('aria-pressed', String(wide));
      requestAnimationFrame(() => this.views.slice(0, this.active || 0).forEach((v) => v.fit()));
    });
    $('#speed').addEventListener('change', () => { if (this.timer) { this.pause(); this.play(); } });
    // Ctrl+Enter in the textarea runs the search without reaching for the mouse.
    $('#tree-text').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.run();
      }
    });
    tabKeyHooks.tree = (event) => this.onKey(event);
    tabShownHooks.tree = () => this.views.forEach((v) => { if (!v.fitted) v.fit(); });
    this.updateParams();
    this.updateStepper();
  }

  /** Shows the parameter inputs that the chosen algorithms use. */
  updateParams() {
    const compare = $('#compare').checked;
    $('#algorithm-2').disabled = !compare;
    const used = [$('#algorithm').value];
    if (compare) used.push($('#algorithm-2').value);
    $('#ab-params').hidden = !used.includes('alphabeta');
    $('#mn-params').hidden = !used.some((a) => a.startsWith('mn-'));
  }

  /** The request body for `algorithm`: only the parameters it takes. */
  requestFor(algorithm, tree) {
    const body = { tree, algorithm };
    if (algorithm === 'alphabeta') {
      body.alpha = numberInput('alpha', null);
      body.beta = numberInput('beta', null);
    } else if (algorithm.startsWith('mn-')) {
      for (const name of ['m', 'n', 'x', 'y', 'r', 's']) {
        const value = numberInput('mn-' + name, undefined);
        if (value !== undefined) body[name] = value;
      }
    }
    return body;
  }

  async run() {
    this.pause();
    const tree = $('#tree-text').value;
    const algorithms = [$('#algorithm').value];
    if ($('#compare').checked) algorithms.push($('#algorithm-2').value);
    await busy(this.panel, $('#status'), async () => {
      const bodies = algorithms.map((a) => this.requestFor(a, tree));
      const results = await Promise.all(bodies.map((b) => api('/api/tree/search', b)));
      $('#views').classList.toggle('two', results.length === 2);
      this.views[1].root.hidden = results.length < 2;
      results.forEach((r, i) => this.views[i].load(r));
      this.active = results.length;
      this.go(0);
      // A counter of finished runs: a stable hook for tests waiting on a search.
      const views = $('#views');
      views.dataset.runs = String(Number(views.dataset.runs || 0) + 1);
      // The second view was hidden until now: it could only be fitted once it has a size.
      for (const view of this.views.slice(0, this.active)) view.fit();
    });
    // busy() re-enabled every button it disabled: set the stepper's own states again.
    this.updateStepper();
  }

  async randomTree() {
    const seedText = $('#rnd-seed').value.trim();
    await busy(this.panel, null, async () => {
      const seed = seedText === '' ? Math.floor(Math.random() * 1e9) : numberInput('rnd-seed', 0);
      const pair = (a, b) => [numberInput(a, 0), numberInput(b, 0)];
      const answer = await api('/api/tree/random', {
        branching: pair('rnd-bmin', 'rnd-bmax'),
        depth: pair('rnd-dmin', 'rnd-dmax'),
        values: pair('rnd-vmin', 'rnd-vmax'),
        seed,
      });
      $('#tree-text').value = answer.tree;
      hideTreeSource();
      $('#rnd-note').textContent = `seed ${seed}: ${answer.nodes} nodes, ${answer.leaves} leaves`;
    });
    if (errorBox.hidden) await this.run();
  }

  maxStep() {
    return Math.max(0, ...this.views.slice(0, this.active || 0).map((v) => v.events.length));
  }

  go(step) {
    if (!this.active) return;
    this.step = Math.max(0, Math.min(step, this.maxStep()));
    for (const view of this.views.slice(0, this.active)) view.show(this.step);
    if (this.step === this.maxStep()) this.pause();
    this.updateStepper();
  }

  updateStepper() {
    const max = this.maxStep();
    const has = Boolean(this.active);
    $('#step-label').textContent = has ? `step ${this.step} of ${max}` : 'no search yet';
    $('#first').disabled = !has || this.step === 0;
    $('#prev').disabled = !has || this.step === 0;
    $('#next').disabled = !has || this.step === max;
    $('#last').disabled = !has || this.step === max;
    $('#play').disabled = !has;
    $('#play').textContent = this.timer ? '⏸ Pause' : '▶ Play';
  }

  togglePlay() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (!this.active) return;
    if (this.step >= this.maxStep()) this.go(0);
    this.timer = setInterval(() => this.go(this.step + 1), Number($('#speed').value));
    this.updateStepper();
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.updateStepper();
  }

  onKey(event) {
    if (!this.active) return false;
    switch (event.key) {
      case 'ArrowRight': this.pause(); this.go(this.step + 1); return true;
      case 'ArrowLeft': this.pause(); this.go(this.step - 1); return true;
      case 'Home': this.pause(); this.go(0); return true;
      case 'End': this.pause(); this.go(this.maxStep()); return true;
      case ' ': this.togglePlay(); return true;
      default: return false;
    }
  }
}

// The tree of Wikipedia's alpha-beta figure: four plies, five cutoffs, 9 of 14 leaves.
const DEFAULT_TREE = '((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))';

const treeInspector = new TreeInspector();

// ---------------------------------------------------------------- a game's choice, opened in the inspector

/**
 * Opens the computer's last choice in a game as a one-ply tree: the root is the position
 * it moved in (always MAX in the inspector, so every leaf must be a value for the
 * computer), each child one of its moves with the value the API gave it. Runs minimax on
 * it and shows the end of the search; `source` (DOM nodes or strings) says where the tree
 * came from, and the note maps the child numbers to the game's moves.
 */
async function openInInspector(title, source, leaves, played = null, why = '') {
  if (!leaves.length) return;
  // Minimax's best move is the first child of the best value; say where the game's own move
  // stands when it is another one.
  const best = Math.max(...leaves.map((leaf) => leaf.value));
  const first = leaves.findIndex((leaf) => leaf.value === best);
  const mine = leaves.findIndex((leaf) => leaf.label === played);
  let tie = '';
  if (mine >= 0 && mine !== first) {
    tie = leaves[mine].value === best
      ? ` The computer's move is child ${mine + 1}, as good as child ${first + 1} (minimax's best move is the first of equals).`
      : ` The computer's move is child ${mine + 1}, valued ${fmt(leaves[mine].value)} here against ${fmt(best)} for child ${first + 1}${why ? ': ' + why : ''}.`;
  }
  const tree = '(' + leaves.map((leaf) => String(leaf.value)).join(' ') + ')';
  $('#tree-text').value = tree;
  $('#compare').checked = false;
  $('#algorithm').value = 'minimax';
  treeInspector.updateParams();
  const note = $('#tree-source');
  const close = h('button', { type: 'button', class: 'ghost tree-source-close', 'aria-label': 'Hide this note', title: 'Hide this note', text: '✕' });
  close.addEventListener('click', hideTreeSource);
  note.replaceChildren(
    close,
    h('strong', { text: title + ': ' }), ...source,
    h('br'),
    h('span', { class: 'tree-source-map', text: 'Children: ' + leaves.map((leaf, i) => `${i + 1} = ${leaf.label}`).join(', ') + '.' }),
    tie,
  );
  note.hidden = false;
  showTab('tree');
  const runs = Number($('#views').dataset.runs || 0);
  await treeInspector.run();
  // A one-ply tree teaches little step by step: show the outcome at once (Home replays it).
  if (Number($('#views').dataset.runs || 0) > runs) treeInspector.go(treeInspector.maxStep());
  else hideTreeSource();
}

function hideTreeSource() {
  $('#tree-source').hidden = true;
  $('#tree-source').replaceChildren();
}

// Once the tree is edited, the note no longer describes it.
$('#tree-text').addEventListener('input', hideTreeSource);

/** A position as the game's moves to it: all of them when few, else the count and the last. */
function positionText(moves, sep = ' ') {
  if (moves.length === 0) return 'the start position';
  if (moves.length <= 8) return `the position after ${moves.join(sep)}`;
  return `the position after ${moves.length} moves (… ${moves.slice(-6).join(sep)})`;
}

// ================================================================ tic-tac-toe

/**
 * Tic-tac-toe against McCarthy's program. The server is stateless: each request carries
 * the whole game (`moves`, squares 1-9) and answers the computer's move for the side to
 * move. The values shown are those of the person's choices: the page asks for the position
 * with the person to move and uses only `values` from that answer.
 */
class TicTacToe {
  constructor() {
    this.panel = $('#panel-ttt');
    this.statusEl = $('#ttt-status');
    this.infoEl = $('#ttt-info');
    this.board = $('#ttt-board');
    this.cells = [];
    for (let sq = 1; sq <= 9; sq++) {
      const cell = h('button', { type: 'button', class: 'ttt-cell', 'data-square': sq, 'aria-label': `square ${sq}` });
      cell.append(h('span', { class: 'mark' }), h('span', { class: 'sq-value' }));
      cell.addEventListener('click', () => this.play(sq));
      this.board.append(cell);
      this.cells.push(cell);
    }
    $('#ttt-new').addEventListener('click', () => this.newGame());
    $('#ttt-side').addEventListener('change', () => this.newGame());
    $('#ttt-values').addEventListener('change', () => this.refreshValues());
    $('#ttt-open-tree').addEventListener('click', () => this.openTree());
    tabShownHooks.ttt = () => { if (!this.started) this.newGame(); };
    tabKeyHooks.ttt = (event) => {
      if (/^[1-9]$/.test(event.key)) { this.play(Number(event.key)); return true; }
      return false;
    };
  }

  get person() { return $('#ttt-side').value; }
  toMove() { return this.moves.length % 2 === 0 ? 'X' : 'O'; }

  async newGame() {
    this.started = true;
    this.moves = [];
    this.over = null;
    this.values = null;
    this.lastSearch = null;
    this.infoEl.textContent = '';
    this.render();
    if (this.person === 'O') await this.computerMove();
    else {
      this.statusEl.textContent = 'Your move: you are X.';
      await this.refreshValues();
    }
  }

  async play(square) {
    if (this.over || this.toMove() !== this.person || this.moves.includes(square) || this.panel.classList.contains('busy')) return;
    this.moves.push(square);
    this.values = null;
    this.render();
    const ok = await this.computerMove();
    if (!ok) {
      // The server refused: take the move back so the board shows the real game.
      this.moves.pop();
      this.render();
    }
  }

  async computerMove() {
    const answer = await busy(this.panel, this.statusEl, () => api('/api/ttt/move', { moves: this.moves }));
    if (!answer) return false;
    if (answer.ending) {
      this.finish(answer.ending);
      return true;
    }
    const computer = this.person === 'X' ? 'O' : 'X';
    // What the computer chose from, for "Open in inspector": every square's value for X.
    this.lastSearch = { before: this.moves.slice(), values: answer.values || [], computer, move: answer.move };
    this.moves.push(answer.move);
    this.lastComputer = answer.move;
    this.infoEl.textContent = `The computer (${computer}) played square ${answer.move}. ` +
      `Value for X before its move: ${fmt(answer.value)} (${tttMeaning(answer.value)}).`;
    if (answer.after) this.finish(answer.after);
    else this.statusEl.textContent = `Your move: you are ${this.person}.`;
    this.render();
    await this.refreshValues();
    return true;
  }

  /** With "show values", asks for the values of the person's possible moves. */
  async refreshValues() {
    this.values = null;
    if ($('#ttt-values').checked && !this.over && this.toMove() === this.person) {
      const status = this.statusEl.textContent;
      const answer = await busy(this.panel, this.statusEl, () => api('/api/ttt/move', { moves: this.moves }));
      this.statusEl.textContent = status;
      if (answer && answer.values) this.values = new Map(answer.values.map((v) => [v.square, v.value]));
    }
    this.render();
  }

  finish(ending) {
    this.over = ending;
    let text;
    if (ending === 'draw') text = 'Game over: a draw. McCarthy\'s program never loses.';
    else if (ending.startsWith(this.person)) text = 'Game over: you win!';
    else text = `Game over: ${ending} — the computer wins.`;
    this.statusEl.textContent = text;
    this.render();
  }

  render() {
    const x = new Set(this.moves.filter((_, i) => i % 2 === 0));
    this.cells.forEach((cell, i) => {
      const sq = i + 1;
      const mark = x.has(sq) ? 'X' : this.moves.includes(sq) ? 'O' : '';
      $('.mark', cell).textContent = mark;
      cell.classList.toggle('x', mark === 'X');
      cell.classList.toggle('o', mark === 'O');
      cell.classList.toggle('last', sq === this.moves[this.moves.length - 1] && mark !== '');
      const value = !mark && this.values ? this.values.get(sq) : undefined;
      const valueEl = $('.sq-value', cell);
      valueEl.textContent = value === undefined ? '' : fmt(value);
      valueEl.className = 'sq-value' + (value === undefined ? '' : value > 0 ? ' good-x' : value < 0 ? ' good-o' : ' even');
      cell.classList.toggle('playable', !mark && !this.over && this.toMove() === this.person);
      cell.setAttribute('aria-label', `square ${sq}${mark ? ': ' + mark : ''}`);
    });
    this.board.classList.toggle('over', Boolean(this.over));
    $('#ttt-open-tree').disabled = !(this.lastSearch && this.lastSearch.values.length);
  }

  /**
   * The computer's last choice as a one-ply tree. The API's values are X's; the
   * inspector's root is MAX, so when the computer is O they are negated.
   */
  openTree() {
    const last = this.lastSearch;
    if (!last || !last.values.length || this.panel.classList.contains('busy')) return;
    const sign = last.computer === 'X' ? 1 : -1;
    const leaves = last.values.map((v) => ({ value: sign * v.value + 0, label: `square ${v.square}` }));
    const whose = sign > 0
      ? 'each leaf is the value of a square for X, as the API gives it'
      : 'each leaf is the value of a square for O: the API gives X\'s values, negated here so that the root (MAX) is the computer';
    openInInspector('From tic-tac-toe',
      [`${positionText(last.before)}, the computer (${last.computer}) to move; ${whose}. It played square ${last.move}.`],
      leaves, `square ${last.move}`);
  }
}

function tttMeaning(value) {
  if (value > 0) return 'X wins';
  if (value < 0) return 'O wins';
  return 'a draw';
}

const ticTacToe = new TicTacToe();

// ================================================================ Connect Four

const C4_COLS = 7;
const C4_ROWS = 6;

/**
 * Connect Four against the solver. The game is the string of 1-based columns; `owners`
 * says who played each move, so that undo can take back the person's last move together
 * with the computer's answer and never the computer's opening move.
 */
class ConnectFour {
  constructor() {
    this.panel = $('#panel-c4');
    this.statusEl = $('#c4-status');
    this.infoEl = $('#c4-info');
    this.boardEl = $('#c4-board');
    this.scoresEl = $('#c4-scores');
    this.columns = [];
    for (let col = 1; col <= C4_COLS; col++) {
      const column = h('button', { type: 'button', class: 'c4-col', 'data-col': col, 'aria-label': `column ${col}` });
      // Rows from the top, so that the DOM order is the picture's order.
      for (let row = C4_ROWS; row >= 1; row--) column.append(h('div', { class: 'c4-cell', 'data-row': row }, h('div', { class: 'disc' })));
      column.addEventListener('click', () => this.play(col));
      this.boardEl.append(column);
      this.columns.push(column);
      this.scoresEl.append(h('div', { class: 'c4-score', 'data-score-col': col }));
    }
    $('#c4-new').addEventListener('click', () => this.newGame());
    $('#c4-side').addEventListener('change', () => this.newGame());
    $('#c4-undo').addEventListener('click', () => this.undo());
    $('#c4-open-tree').addEventListener('click', () => this.openTree());
    $('#c4-show-scores').addEventListener('change', () => { $('#c4-scores-box').hidden = !$('#c4-show-scores').checked; });
    tabShownHooks.c4 = () => { if (!this.started) this.newGame(); };
    tabKeyHooks.c4 = (event) => {
      if (/^[1-7]$/.test(event.key)) { this.play(Number(event.key)); return true; }
      return false;
    };
  }

  get personFirst() { return $('#c4-side').value === 'first'; }
  personToMove() { return (this.moves.length % 2 === 0) === this.personFirst; }
  height(col) { return this.moves.split('').filter((c) => Number(c) === col).length; }

  async newGame() {
    this.started = true;
    this.moves = '';
    this.owners = [];
    this.over = null;
    this.dropped = null;
    this.lastSearch = null;
    this.clearScores();
    this.infoEl.textContent = '';
    this.render();
    if (this.personFirst) this.statusEl.textContent = 'Your move (red): click a column.';
    else await this.computerMove();
  }

  async play(col) {
    if (this.over || !this.personToMove() || this.height(col) >= C4_ROWS || this.panel.classList.contains('busy')) return;
    this.moves += String(col);
    this.owners.push('person');
    this.dropped = this.moves.length - 1;
    this.render();
    const ok = await this.computerMove();
    if (!ok) {
      this.moves = this.moves.slice(0, -1);
      this.owners.pop();
      this.render();
    }
  }

  async computerMove() {
    const scores = $('#c4-show-scores').checked;
    const answer = await busy(this.panel, this.statusEl, () => api('/api/connect4/move', { moves: this.moves, scores }));
    if (!answer) return false;
    if (answer.ending) {
      this.finish(answer.ending);
      return true;
    }
    // What the computer chose from, for "Open in inspector" (scores only when asked).
    this.lastSearch = { before: this.moves, scores: answer.scores || null, move: answer.move };
    this.moves += String(answer.move);
    this.owners.push('computer');
    this.dropped = this.moves.length - 1;
    const exact = answer.exact === false ? ' (not exact: the search stopped at its node budget)' : '';
    this.infoEl.textContent = `The computer played column ${answer.move}: score ${c4ScoreText(answer.score)}${exact}, ${c4Meaning(answer.score)}.`;
    if (answer.scores) this.showScores(answer.scores);
    else this.clearScores();
    if (answer.after) this.finish(answer.after);
    else this.statusEl.textContent = `Your move (${this.personFirst ? 'red' : 'yellow'}).`;
    this.render();
    return true;
  }

  finish(ending) {
    this.over = ending;
    const personWins = (ending === 'first player wins' && this.personFirst) || (ending === 'second player wins' && !this.personFirst);
    let text;
    if (ending === 'draw') text = 'Game over: a draw.';
    else if (personWins) text = 'Game over: you win!';
    else text = 'Game over: the computer wins.';
    this.statusEl.textContent = text;
    this.render();
  }

  undo() {
    if (this.panel.classList.contains('busy')) return;
    const lastPerson = this.owners.lastIndexOf('person');
    if (lastPerson < 0) return;
    this.moves = this.moves.slice(0, lastPerson);
    this.owners = this.owners.slice(0, lastPerson);
    this.over = null;
    this.dropped = null;
    this.lastSearch = null;
    this.clearScores();
    this.infoEl.textContent = 'Took back your last move and the answer.';
    this.statusEl.textContent = `Your move (${this.personFirst ? 'red' : 'yellow'}).`;
    this.render();
  }

  showScores(scores) {
    // The scores are the computer's, for each of its columns before it moved.
    scores.forEach((score, i) => {
      const cell = this.scoresEl.children[i];
      const [low, high] = score === null ? [NaN, NaN] : c4Range(score);
      cell.textContent = score === null ? '' : c4ScoreText(score);
      cell.classList.toggle('win', low > 0);
      cell.classList.toggle('loss', high < 0);
      cell.classList.toggle('draw', low === 0 && high === 0);
    });
    this.scoresEl.title = 'the computer\'s score of each column before its move';
  }

  clearScores() {
    for (const cell of this.scoresEl.children) {
      cell.textContent = '';
      cell.classList.remove('win', 'loss', 'draw');
    }
  }

  render() {
    // Which disc is where: replay the moves column by column.
    const grid = Array.from({ length: C4_COLS }, () => []);
    [...this.moves].forEach((c, i) => grid[Number(c) - 1].push({ first: i % 2 === 0, index: i }));
    const winning = this.over ? c4WinningCells(grid) : new Set();
    this.columns.forEach((column, ci) => {
      const cells = column.children;
      for (let row = 1; row <= C4_ROWS; row++) {
        const cell = cells[C4_ROWS - row];
        const disc = grid[ci][row - 1];
        cell.classList.toggle('red', Boolean(disc && disc.first));
        cell.classList.toggle('yellow', Boolean(disc && !disc.first));
        const isNew = Boolean(disc && disc.index === this.dropped);
        cell.classList.toggle('last', Boolean(disc && disc.index === this.moves.length - 1));
        if (isNew) {
          // Restart the fall: the disc drops from above the board through the empty rows.
          cell.classList.remove('drop');
          cell.style.setProperty('--fall', String(C4_ROWS - row + 1));
          void cell.offsetWidth;
          cell.classList.add('drop');
        } else {
          cell.classList.remove('drop');
        }
      }
      for (let row = 1; row <= C4_ROWS; row++) cells[C4_ROWS - row].classList.toggle('win', winning.has(`${ci},${row - 1}`));
      const full = grid[ci].length >= C4_ROWS;
      column.classList.toggle('full', full);
      column.classList.toggle('playable', !full && !this.over && this.personToMove());
    });
    this.dropped = null;
    this.boardEl.classList.toggle('over', Boolean(this.over));
    $('#c4-open-tree').disabled = !this.lastSearch;
  }

  /**
   * The computer's last choice as a one-ply tree: each column's score for the player to
   * move (the computer, the inspector's MAX). Asks for the scores when the game was played
   * without them; a score known only as bounds becomes its midpoint, rounded.
   */
  async openTree() {
    const last = this.lastSearch;
    if (!last || this.panel.classList.contains('busy')) return;
    if (!last.scores) {
      const answer = await busy(this.panel, null, () => api('/api/connect4/move', { moves: last.before, scores: true }));
      this.render();
      if (!answer || !answer.scores) return;
      last.scores = answer.scores;
    }
    const leaves = [];
    const inexact = [];
    last.scores.forEach((score, i) => {
      if (score === null) return;
      const [low, high] = c4Range(score);
      const value = low === high ? low : Math.round((low + high) / 2) + 0;
      if (low !== high) inexact.push(`column ${i + 1} (${fmt(low)}…${fmt(high)}: ${fmt(value)})`);
      leaves.push({ value, label: `column ${i + 1}` });
    });
    const who = this.personFirst ? 'yellow, second' : 'red, first';
    const source = [`${positionText([...last.before], '')}, the computer (${who}) to move; each leaf is a column's score for the computer. It played column ${last.move}.`];
    if (inexact.length) {
      source.push(' ', h('em', { text: `Known only as bounds (the solver stopped at its node budget), so their midpoint rounded stands in: ${inexact.join(', ')}.` }));
    }
    openInInspector('From Connect Four', source, leaves, `column ${last.move}`,
      inexact.length ? 'a midpoint stands in for a score known only as bounds' : '');
  }
}

/** The cells ("col,row", 0-based from the bottom) of every four in a row, to ring them. */
function c4WinningCells(grid) {
  const owner = (c, r) => (c >= 0 && c < C4_COLS && grid[c][r] ? grid[c][r].first : null);
  const cells = new Set();
  for (let c = 0; c < C4_COLS; c++) {
    for (let r = 0; r < C4_ROWS; r++) {
      const who = owner(c, r);
      if (who === null) continue;
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const line = [0, 1, 2, 3].map((k) => [c + k * dc, r + k * dr]);
        if (line.every(([lc, lr]) => lr >= 0 && lr < C4_ROWS && owner(lc, lr) === who)) {
          line.forEach(([lc, lr]) => cells.add(`${lc},${lr}`));
        }
      }
    }
  }
  return cells;
}

/**
 * A score is a number, or `{"at_least", "at_most"}` when the solver ran out of its node
 * budget before pinning it down; both as [low, high].
 */
function c4Range(score) {
  if (typeof score === 'number') return [score, score];
  return [score.at_least, score.at_most];
}

function c4ScoreText(score) {
  const [low, high] = c4Range(score);
  return low === high ? fmt(low) : `${fmt(low)}…${fmt(high)}`;
}

function c4Meaning(score) {
  const [low, high] = c4Range(score);
  if (low > 0) return 'the computer wins with best play';
  if (high < 0) return 'the computer loses with best play';
  if (low === 0 && high === 0) return 'a draw with best play';
  if (low === 0) return 'at least a draw for the computer';
  if (high === 0) return 'at best a draw for the computer';
  return 'not yet known';
}

const connectFour = new ConnectFour();

// ================================================================ Kalah

/** How long each move stays on the board before the computer's next one is shown. */
const KALAH_PAUSE_MS = 450;
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

const capital = (side) => side.charAt(0).toUpperCase() + side.slice(1);
const otherSide = (side) => (side === 'south' ? 'north' : 'south');

/**
 * Kalah(h, s) against the solver. The server keeps nothing: each request carries the
 * settings and every move so far (house numbers 1..h for whoever moved), and answers the
 * position and, for the side to move, the computer's move. A last seed in the mover's
 * store gives another move, so either side may move several times in a row: after the
 * person's move the page shows the position, and while the computer is to move it shows
 * its move and asks again. `positions[k]` is the position after k moves, so that undo
 * needs no request.
 *
 * The pits are in sowing order, as the API gives them: South's houses 1..h, South's store,
 * North's houses 1..h, North's store. A house's number counts from its owner's left:
 * South's from the left of the picture, North's (facing South across the board) from the
 * right.
 */
class Kalah {
  constructor() {
    this.panel = $('#panel-kalah');
    this.statusEl = $('#kalah-status');
    this.boardEl = $('#kalah-board');
    this.pitEls = [];
    this.shownAt = 0;
    $('#kalah-new').addEventListener('click', () => this.newGame());
    $('#kalah-undo').addEventListener('click', () => this.undo());
    for (const id of ['kalah-side', 'kalah-houses', 'kalah-seeds', 'kalah-rules']) {
      $('#' + id).addEventListener('change', () => this.newGame());
    }
    tabShownHooks.kalah = () => { if (!this.started) this.newGame(); };
    tabKeyHooks.kalah = (event) => {
      if (/^[1-9]$/.test(event.key) && this.started && Number(event.key) <= this.houses) {
        this.play(Number(event.key));
        return true;
      }
      return false;
    };
  }

  get person() { return $('#kalah-side').value; }
  get computer() { return otherSide(this.person); }
  get position() { return this.positions[this.positions.length - 1]; }
  isBusy() { return this.panel.classList.contains('busy'); }

  /** The index in `pits` of `side`'s house number `house` (1-based). */
  pitIndex(side, house) {
    return side === 'south' ? house - 1 : this.houses + house;
  }

  body() {
    return { houses: this.houses, seeds: this.seeds, rules: this.rules, moves: this.moves };
  }

  async newGame() {
    if (this.isBusy()) return;
    this.started = true;
    this.houses = Number($('#kalah-houses').value);
    this.seeds = Number($('#kalah-seeds').value);
    this.rules = $('#kalah-rules').value;
    this.moves = [];
    this.history = [];
    this.stalled = false;
    // The start needs no request: every house holds `seeds`, the stores nothing, South moves.
    const side = Array(this.houses).fill(this.seeds);
    this.positions = [{ pits: [...side, 0, ...side, 0], to_move: 'south', ending: null }];
    this.buildBoard();
    this.render();
    if (this.person === 'north') await this.computerTurn(null);
    this.render();
  }

  /** The pits as a grid: North's store, North's houses (right to left), South's store. */
  buildBoard() {
    const hs = this.houses;
    this.boardEl.replaceChildren();
    this.boardEl.style.setProperty('--houses', String(hs));
    this.pitEls = [];
    for (let index = 0; index < 2 * hs + 2; index++) {
      const side = index <= hs ? 'south' : 'north';
      const store = index === hs || index === 2 * hs + 1;
      const house = store ? null : (side === 'south' ? index + 1 : index - hs);
      const mine = !store && side === this.person;
      const attrs = {
        class: `kalah-pit ${store ? 'store' : 'house'} ${side}${mine ? ' mine' : ''}`,
        'data-pit': index,
        'data-side': side,
      };
      let el;
      if (mine) {
        el = h('button', { type: 'button', ...attrs, 'data-house': house });
        el.addEventListener('click', () => this.play(house));
      } else {
        el = h('div', attrs);
      }
      if (!store) el.append(h('span', { class: 'kalah-num', text: String(house) }));
      else el.append(h('span', { class: 'kalah-store-name', text: side === this.person ? 'your store' : 'store' }));
      el.append(h('span', { class: 'kalah-dots', 'aria-hidden': 'true' }), h('span', { class: 'kalah-count' }));
      // North's store on the left over both rows, South's on the right; North's house 1 is
      // at the right (its owner's left), South's at the left.
      if (store) {
        el.style.gridColumn = side === 'north' ? '1' : String(hs + 2);
        el.style.gridRow = '1 / span 2';
      } else {
        el.style.gridColumn = String(side === 'south' ? house + 1 : hs - house + 2);
        el.style.gridRow = side === 'south' ? '2' : '1';
      }
      this.boardEl.append(el);
      this.pitEls.push(el);
    }
  }

  canInput() {
    const pos = this.position;
    return Boolean(this.started && pos && !pos.ending && pos.to_move === this.person && !this.isBusy());
  }

  async play(house) {
    if (!this.canInput() || house < 1 || house > this.houses) return;
    if (this.position.pits[this.pitIndex(this.person, house)] === 0) return;
    this.moves.push(house);
    const answer = await busy(this.panel, this.statusEl, () => api('/api/kalah/move', this.body()));
    if (!answer) {
      this.moves.pop();
      this.render();
      return;
    }
    const pos = { pits: answer.pits, to_move: answer.to_move, ending: answer.ending };
    this.positions.push(pos);
    this.history.push({ owner: 'person', side: this.person, house, another: !pos.ending && pos.to_move === this.person });
    this.render();
    if (!pos.ending && pos.to_move === this.computer) await this.computerTurn(answer);
    this.render();
  }

  /**
   * The computer moves while it is to move: `answer` is the API's answer for the position
   * now (null: ask). Each move is shown for a moment before the next.
   */
  async computerTurn(answer) {
    this.stalled = false;
    const done = await busy(this.panel, this.statusEl, async () => {
      for (;;) {
        if (!answer) answer = await api('/api/kalah/move', this.body());
        if (answer.ending || answer.move === null || answer.move === undefined) return true;
        const wait = KALAH_PAUSE_MS - (performance.now() - this.shownAt);
        if (this.moves.length > 0 && wait > 0) await sleep(wait);
        const after = answer.after;
        this.moves.push(answer.move);
        this.positions.push({ pits: after.pits, to_move: after.to_move, ending: after.ending });
        const again = !after.ending && after.to_move === this.computer;
        this.history.push({
          owner: 'computer', side: this.computer, house: answer.move, another: again,
          atLeast: answer.at_least, atMost: answer.at_most, exact: answer.exact,
        });
        this.render();
        if (!again) return true;
        this.statusEl.textContent = `The computer's last seed landed in its store: it moves again…`;
        answer = null;
      }
    });
    this.stalled = !done;
  }

  undo() {
    if (this.isBusy()) return;
    const lastPerson = this.history.map((m) => m.owner).lastIndexOf('person');
    if (lastPerson < 0) return;
    this.moves = this.moves.slice(0, lastPerson);
    this.history = this.history.slice(0, lastPerson);
    this.positions = this.positions.slice(0, lastPerson + 1);
    this.stalled = false;
    this.render();
  }

  statusText() {
    const pos = this.position;
    if (pos.ending) {
      const winner = /^(south|north)\b/i.exec(pos.ending);
      const verdict = !winner ? '' : winner[1].toLowerCase() === this.person ? ' — you win!' : ' — the computer wins.';
      return `Game over: ${pos.ending}${verdict}`;
    }
    const keys = this.houses > 1 ? `1–${this.houses}` : '1';
    if (pos.to_move === this.person) {
      const last = this.history[this.history.length - 1];
      if (last && last.owner === 'person' && last.another) {
        return `Another move: your last seed landed in your store. Play again (${capital(this.person)}).`;
      }
      return `Your move (${capital(this.person)}): click one of your houses, or press ${keys}.`;
    }
    return this.stalled ? 'The computer did not answer: press Undo or New game.' : 'The computer is to move…';
  }

  render() {
    const pos = this.position;
    if (!pos) return;
    const inputOk = this.canInput();
    const last = this.history[this.history.length - 1];
    const lastIndex = last ? this.pitIndex(last.side, last.house) : -1;
    const before = this.positions.length > 1 ? this.positions[this.positions.length - 2].pits : null;
    pos.pits.forEach((count, index) => {
      const el = this.pitEls[index];
      if (!el) return;
      $('.kalah-count', el).textContent = String(count);
      // A few seeds as dots too (a store or a big house would drown in them).
      const dots = $('.kalah-dots', el);
      const shown = el.classList.contains('store') ? 0 : count <= 18 ? count : 0;
      if (dots.childElementCount !== shown) dots.replaceChildren(...Array.from({ length: shown }, () => h('span', { class: 'seed' })));
      el.classList.toggle('playable', el.classList.contains('mine') && inputOk && count > 0);
      el.classList.toggle('last', index === lastIndex);
      el.classList.toggle('changed', Boolean(before && before[index] !== count && index !== lastIndex));
      if (el.dataset.house) {
        el.setAttribute('aria-label', `your house ${el.dataset.house}: ${count} seeds`);
      } else {
        el.setAttribute('aria-label', `${el.dataset.side}'s ${el.classList.contains('store') ? 'store' : 'house'}: ${count} seeds`);
      }
    });
    this.boardEl.dataset.moves = this.moves.join(',');
    this.boardEl.classList.toggle('input', inputOk);
    this.boardEl.classList.toggle('over', Boolean(pos.ending));
    for (const side of ['north', 'south']) {
      const label = $(`#kalah-${side}-label`);
      label.textContent = `${capital(side)} (${side === this.person ? 'you' : 'the computer'})` +
        (!pos.ending && pos.to_move === side ? ' — to move' : '');
      label.classList.toggle('to-move', !pos.ending && pos.to_move === side);
    }
    if (!this.isBusy()) this.statusEl.textContent = this.statusText();
    this.renderComputer();
    this.renderHistory();
    $('#kalah-undo').disabled = !this.history.some((m) => m.owner === 'person');
    this.shownAt = performance.now();
  }

  renderComputer() {
    const last = [...this.history].reverse().find((m) => m.owner === 'computer');
    if (!last) {
      $('#kalah-last').textContent = '—';
      $('#kalah-margin').textContent = '—';
      return;
    }
    $('#kalah-last').textContent = `house ${last.house} (${capital(last.side)})` + (last.another ? ', another move' : '');
    const [low, high] = [last.atLeast, last.atMost];
    const signed = (v) => (v > 0 ? '+' : '') + fmt(v);
    let text;
    if (last.exact || low === high) {
      const meaning = low > 0 ? `it wins by ${low}` : low < 0 ? `it loses by ${-low}` : 'a draw';
      text = `${signed(low)}, exact: ${meaning} with best play`;
    } else {
      text = `${signed(low)} to ${signed(high)}, bounds: not solved within 500,000 positions`;
    }
    $('#kalah-margin').textContent = text;
  }

  renderHistory() {
    const list = $('#kalah-history');
    list.replaceChildren(...this.history.map((m) => h('li', { class: 'kalah-h-move ' + m.owner },
      h('span', { class: 'kalah-h-side', text: `${capital(m.side)}${m.owner === 'person' ? ' (you)' : ''}` }),
      ` house ${m.house}`,
      m.another ? h('span', { class: 'kalah-h-again', text: ' ↻ again', title: 'the last seed landed in the store: another move' }) : '')));
    list.scrollTop = list.scrollHeight;
  }
}

const kalah = new Kalah();

// ================================================================ checkers

/**
 * Where square 1-32 sits on the board: the standard diagram, Black at the top on 1-12 and
 * White at the bottom on 21-32. Row 0 (the top) holds squares 1-4 in columns 1, 3, 5, 7;
 * row 1 holds 5-8 in columns 0, 2, 4, 6; and so on, alternating.
 */
function squareCell(square) {
  const idx = square - 1;
  const row = Math.floor(idx / 4);
  const col = 2 * (idx % 4) + (row % 2 === 0 ? 1 : 0);
  return { row, col };
}

/**
 * Checkers against the engine. Like the other games the server keeps nothing: the page
 * holds the start FEN and the list of moves, and every request sends them. The person
 * enters a move by clicking its squares in turn, matched against the `path`s of the
 * legal moves the server lists.
 */
class Checkers {
  constructor() {
    this.panel = $('#panel-checkers');
    this.statusEl = $('#ck-status');
    this.boardEl = $('#ck-board');
    this.squares = new Map();
    this.flipped = false;
    $('#ck-new').addEventListener('click', () => this.newGame());
    $('#ck-undo').addEventListener('click', () => this.undo());
    // Stop aborts the request: the server notices its client has gone and stops the search.
    $('#ck-stop').addEventListener('click', () => { if (this.searching) this.searching.abort(); });
    $('#ck-go').addEventListener('click', () => this.afterPersonOrStart());
    $('#ck-flip').addEventListener('click', () => { this.flipped = !this.flipped; this.buildBoard(); this.render(); });
    $('#ck-pdn').addEventListener('click', () => this.downloadPdn());
    $('#ck-open-tree').addEventListener('click', () => this.openTree());
    $('#ck-mode').addEventListener('change', () => {
      const depth = $('#ck-mode').value === 'depth';
      $('#ck-depth').hidden = !depth;
      $('#ck-time').hidden = depth;
    });
    $('#ck-fen').addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.newGame();
    });
    $('#ck-side').addEventListener('change', () => this.newGame());
    tabShownHooks.checkers = () => { if (!this.started) this.newGame(); };
    tabKeyHooks.checkers = (event) => {
      if (event.key === 'Escape') { this.selected = []; this.render(); return true; }
      return false;
    };
    this.buildBoard();
  }

  get person() { return $('#ck-side').value; }

  /** Draws the 64 squares; flipped puts White's side at the top. */
  buildBoard() {
    this.boardEl.replaceChildren();
    this.squares.clear();
    const at = new Map();
    for (let sq = 1; sq <= 32; sq++) {
      const { row, col } = squareCell(sq);
      at.set(row * 8 + col, sq);
    }
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const row = this.flipped ? 7 - r : r;
        const col = this.flipped ? 7 - c : c;
        const sq = at.get(row * 8 + col);
        if (sq === undefined) {
          this.boardEl.append(h('div', { class: 'ck-sq light' }));
          continue;
        }
        const button = h('button', { type: 'button', class: 'ck-sq dark', 'data-square': sq, 'aria-label': `square ${sq}` },
          h('span', { class: 'ck-num', text: String(sq) }), h('span', { class: 'piece' }));
        button.addEventListener('click', () => this.click(sq));
        this.boardEl.append(button);
        this.squares.set(sq, button);
      }
    }
  }

  async newGame() {
    this.started = true;
    this.fen = $('#ck-fen').value.trim() || null;
    this.moves = [];
    this.owners = [];
    this.selected = [];
    this.engine = null;
    const state = await busy(this.panel, this.statusEl, () => api('/api/checkers/state', this.body()));
    if (!state) {
      this.state = null;
      this.statusEl.textContent = 'No game: fix the FEN and press New game.';
      this.render();
      return;
    }
    this.state = state;
    this.render();
    await this.afterPersonOrStart();
  }

  /** The request body for the game so far; `extra` adds the engine's setting. */
  body(extra = {}) {
    const body = { moves: this.moves, ...extra };
    if (this.fen) body.fen = this.fen;
    return body;
  }

  engineSetting() {
    if ($('#ck-mode').value === 'time') return { time: numberInput('ck-time', 2) };
    return { depth: numberInput('ck-depth', 8) };
  }

  /** When the engine is to move and the game goes on, asks for its move. */
  async afterPersonOrStart() {
    const st = this.state;
    if (!st) return;
    if (st.result) { this.render(); return; }
    if (st.to_move === this.person) {
      this.statusEl.textContent = this.yourMoveText();
      this.render();
      return;
    }
    this.searching = new AbortController();
    const signal = this.searching.signal;
    $('#ck-stop').hidden = false;
    $('#ck-go').hidden = true;
    const answer = await busy(this.panel, this.statusEl, () => api('/api/checkers/best', this.body(this.engineSetting()), signal));
    this.searching = null;
    $('#ck-stop').hidden = true;
    if (!answer) {
      if (signal.aborted) {
        this.statusEl.textContent = 'Stopped: the engine has not moved. Press “Engine, move” to let it search again, or Undo.';
        $('#ck-go').hidden = false;
      } else {
        this.statusEl.textContent = 'The engine did not answer: press Undo or try again with New game.';
      }
      this.render();
      return;
    }
    // The moves to the position the engine searched, for "Open in inspector".
    this.engineBefore = this.moves.slice();
    if (answer.move) {
      this.moves.push(answer.move.text);
      this.owners.push('engine');
    }
    this.engine = answer;
    this.state = answer;
    this.statusEl.textContent = answer.result ? '' : this.yourMoveText();
    this.render();
  }

  yourMoveText() {
    const captures = this.state.legal.some((m) => m.text.includes('x'));
    return `Your move (${this.person})` + (captures ? ': a capture is compulsory.' : ': click a piece, then where it goes.');
  }

  canInput() {
    return this.state && !this.state.result && this.state.to_move === this.person && !this.panel.classList.contains('busy');
  }

  /** The legal moves whose path starts with the squares clicked so far. */
  candidates(prefix) {
    if (!this.state) return [];
    return this.state.legal.filter((m) => prefix.every((sq, i) => m.path[i] === sq));
  }

  click(square) {
    if (!this.canInput()) return;
    let prefix = [...this.selected, square];
    if (this.selected.length > 0 && square === this.selected[this.selected.length - 1]) {
      // Clicking the last square again takes that step back.
      this.selected = this.selected.slice(0, -1);
      this.render();
      return;
    }
    let matches = this.candidates(prefix);
    if (matches.length === 0) {
      // Not a continuation: perhaps the start of another move.
      prefix = [square];
      matches = this.candidates(prefix);
      if (matches.length === 0) return;
    }
    const complete = matches.filter((m) => m.path.length === prefix.length);
    if (matches.length === 1 && complete.length === 1) {
      this.selected = [];
      this.playMove(complete[0]);
      return;
    }
    this.selected = prefix;
    this.render();
  }

  async playMove(move) {
    this.moves.push(move.text);
    this.owners.push('person');
    const state = await busy(this.panel, this.statusEl, () => api('/api/checkers/state', this.body()));
    if (!state) {
      this.moves.pop();
      this.owners.pop();
      this.render();
      return;
    }
    this.state = state;
    this.render();
    await this.afterPersonOrStart();
  }

  async undo() {
    if (this.panel.classList.contains('busy')) return;
    const lastPerson = this.owners.lastIndexOf('person');
    if (lastPerson < 0) return;
    this.moves = this.moves.slice(0, lastPerson);
    this.owners = this.owners.slice(0, lastPerson);
    this.selected = [];
    this.engine = null;
    const state = await busy(this.panel, this.statusEl, () => api('/api/checkers/state', this.body()));
    if (state) {
      this.state = state;
      this.statusEl.textContent = this.yourMoveText();
    }
    this.render();
  }

  downloadPdn() {
    if (!this.state || !this.state.pdn) return;
    const blob = new Blob([this.state.pdn + '\n'], { type: 'application/x-chess-pdn' });
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: 'gametree-checkers.pdn' });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  render() {
    const st = this.state;
    const board = st ? st.board : Array(32).fill(null);
    const inputOk = this.canInput();
    const matches = inputOk ? this.candidates(this.selected) : [];
    const starts = new Set(inputOk && this.selected.length === 0 ? matches.map((m) => m.path[0]) : []);
    const targets = new Set(inputOk && this.selected.length > 0
      ? matches.filter((m) => m.path.length > this.selected.length).map((m) => m.path[this.selected.length]) : []);
    const lastMove = this.moves.length ? this.lastPath() : [];
    for (const [sq, button] of this.squares) {
      const piece = board[sq - 1];
      const pieceEl = button.lastChild;
      pieceEl.className = 'piece' + (piece ? ' ' + (piece.toLowerCase() === 'b' ? 'black' : 'white') + (piece === 'B' || piece === 'W' ? ' king' : '') : '');
      pieceEl.textContent = piece === 'B' || piece === 'W' ? '♛' : '';
      button.classList.toggle('start', starts.has(sq));
      button.classList.toggle('target', targets.has(sq));
      button.classList.toggle('selected', this.selected.includes(sq));
      button.classList.toggle('lastmove', lastMove.includes(sq));
      button.setAttribute('aria-label', `square ${sq}` + (piece ? `: ${pieceName(piece)}` : ''));
    }
    this.boardEl.classList.toggle('input', inputOk);
    this.renderLegal(inputOk);
    this.renderHistory();
    this.renderEngine();
    if (st && st.result) this.statusEl.textContent = `Game over: ${checkersResult(st.result, this.person)}`;
    $('#ck-pdn').disabled = !st;
    $('#ck-undo').disabled = !this.owners.includes('person');
    // The engine to move and nothing searching (a search was stopped): offer to ask again.
    const engineToMove = Boolean(st && !st.result && st.to_move !== this.person);
    $('#ck-go').hidden = !(engineToMove && !this.searching);
  }

  /** The squares of the last move (from the engine's answer or the move's text). */
  lastPath() {
    const text = this.moves[this.moves.length - 1];
    return text.split(/[-x]/).map(Number);
  }

  renderLegal(inputOk) {
    const box = $('#ck-legal');
    box.replaceChildren();
    if (!this.state) return;
    for (const move of this.state.legal) {
      const button = h('button', { type: 'button', class: 'ck-move', text: move.text, disabled: !inputOk });
      button.addEventListener('click', () => { if (this.canInput()) { this.selected = []; this.playMove(move); } });
      box.append(button);
    }
    if (!this.state.legal.length) box.append(h('span', { class: 'hint', text: 'none' }));
  }

  renderHistory() {
    // Numbered in pairs from the side that moved first in this game.
    const firstIsBlack = !this.fen || /^\s*B/i.test(this.fen);
    const list = $('#ck-history');
    list.replaceChildren();
    let item = null;
    this.moves.forEach((text, i) => {
      const blackMove = (i % 2 === 0) === firstIsBlack;
      if (!item || blackMove) {
        item = h('li');
        list.append(item);
        if (!blackMove) item.append(h('span', { class: 'ck-h-move', text: '…' }));
      }
      item.append(h('span', { class: 'ck-h-move' + (this.owners[i] === 'engine' ? ' engine' : ''), text }));
    });
    list.scrollTop = list.scrollHeight;
  }

  get engineSide() { return this.person === 'black' ? 'White' : 'Black'; }

  renderEngine() {
    const e = this.engine;
    const set = (id, value) => { $('#ck-e-' + id).textContent = value; };
    this.renderTop();
    if (!e || !e.move) {
      ['move', 'depth', 'nodes', 'value', 'seconds', 'line'].forEach((id) => set(id, '—'));
      return;
    }
    set('move', e.move.text);
    set('depth', String(e.depth));
    set('nodes', Number(e.nodes).toLocaleString('en'));
    set('value', fmt(e.value));
    set('seconds', typeof e.seconds === 'number' ? e.seconds.toFixed(2) : String(e.seconds));
    set('line', (e.principal_line || []).join(' ') || '—');
  }

  /** The top of the engine's tree: each move of the position it searched, with its value. */
  renderTop() {
    const e = this.engine;
    const top = e && e.move && e.top && e.top.moves && e.top.moves.length ? e.top : null;
    $('#ck-top').hidden = !top;
    $('#ck-open-tree').disabled = !top;
    if (!top) return;
    $('#ck-top-caption').textContent = `Top of the tree: alpha-beta to depth ${top.depth}`;
    $('#ck-top-who').textContent = `value for ${this.engineSide}`;
    const best = Math.max(...top.moves.map((m) => m.value));
    $('#ck-top-body').replaceChildren(...top.moves.map((m) => {
      const chosen = m.move === e.move.text;
      const row = h('tr', { class: (chosen ? 'chosen' : '') + (m.value === best ? ' best' : ''), 'data-move': m.move },
        h('td', { text: m.move + (chosen ? ' ◀' : '') }),
        h('td', { text: fmt(m.value) }));
      if (chosen) row.title = 'the engine\'s move';
      return row;
    }));
  }

  /**
   * The top of the engine's tree as a one-ply tree: the values are already for the side
   * to move, the engine, which is the inspector's MAX.
   */
  openTree() {
    const e = this.engine;
    if (!e || !e.move || !e.top || !e.top.moves.length || this.panel.classList.contains('busy')) return;
    const leaves = e.top.moves.map((m) => ({ value: m.value, label: m.move }));
    openInInspector('From checkers', [
      `${positionText(this.engineBefore || [])}, ${this.engineSide} (the engine) to move; each leaf is a move's value for ${this.engineSide} ` +
      `in hundredths of a man, by alpha-beta with quiescence to depth ${e.top.depth}. ` +
      `The engine, searching to depth ${e.depth}, played ${e.move.text}.`,
    ], leaves, e.move.text, e.depth > e.top.depth
      ? `the engine's own search (depth ${e.depth}) went deeper than these values (depth ${e.top.depth})`
      : 'these values come from a search of their own, apart from the engine\'s');
  }
}

function pieceName(piece) {
  return { b: 'black man', w: 'white man', B: 'black king', W: 'white king' }[piece] || piece;
}

function checkersResult(result, person) {
  const winner = result === '1-0' ? 'black' : result === '0-1' ? 'white' : null;
  if (!winner) return 'a draw (½-½).';
  return (winner === person ? 'you win' : 'the engine wins') + ` (${result}).`;
}

const checkers = new Checkers();

// ---------------------------------------------------------------- start

showTab(location.hash.slice(1) || 'tree');
window.addEventListener('hashchange', () => showTab(location.hash.slice(1)));
// Search the default tree at once, so that the first screen already shows a tree to step.
treeInspector.run();
