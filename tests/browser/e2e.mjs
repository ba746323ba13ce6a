// End-to-end test of the page of `gametree serve`, driving headless Chromium as a person
// would: clicking, typing, pressing keys, and waiting for the server's answers.
//
//   GAMETREE_URL=http://127.0.0.1:41234/ node tests/browser/e2e.mjs
//
// Environment: GAMETREE_URL (default http://127.0.0.1:8080/), CHROMIUM (default
// /usr/bin/chromium), SCREENSHOT_DIR (when set: tree-inspector.png, tree-compare.png,
// connect-four.png, checkers.png, kalah.png at 1280x800). Prints `ok - NAME` per check; on the first
// failure `not ok - NAME: WHY` and exit status 1.
//
// The page's hooks this script relies on (web/index.html, web/app.js):
//   tabs            #tab-tree #tab-ttt #tab-c4 #tab-kalah #tab-checkers; panels #panel-tree,
//                   #panel-ttt, #panel-c4, #panel-kalah, #panel-checkers (class `busy` while a
//                   request runs)
//   theme           #theme-toggle, key t, attribute data-theme="light|dark" on <html>
//   errors          #error (hidden unless there is one), its message in #error-text
//   tree inspector  #tree-text #algorithm #compare #algorithm-2 #alpha #beta #run
//                   #first #prev #play #next #last, #step-label ("step K of N"),
//                   #views[data-runs] (counts finished runs), #view-1 and #view-2
//   per view        #status / #status-2 (the current event in words),
//                   #leaf-count / #leaf-count-2 (leaves evaluated so far),
//                   #result-value / #result-value-2 (the value, shown at the last step),
//                   #svg-1 / #svg-2 with g.node[data-path="1.2"] (root data-path=""),
//                   classes leaf, max, min, visited, done, open, current, cut, line, proof;
//                   #tree-source (the note on a tree opened from a game: "1 = …, 2 = …")
//   open in         #ttt-open-tree #c4-open-tree #ck-open-tree: the computer's last choice as
//     inspector     a one-ply tree in #tree-text, run with minimax, shown at its last step
//   tic-tac-toe     #ttt-side #ttt-new #ttt-values, cells #ttt-board [data-square="1..9"]
//                   (class playable when the person may play there), #ttt-status
//   Connect Four    #c4-side #c4-new #c4-undo #c4-show-scores, columns button[data-col="1..7"]
//                   (class playable / full), #c4-scores [data-score-col], #c4-status
//   checkers        #ck-fen #ck-side #ck-mode #ck-depth #ck-time #ck-new #ck-undo #ck-stop #ck-go #ck-pdn,
//                   squares #ck-board [data-square="1..32"] with .piece.black / .piece.white,
//                   #ck-status, #ck-history, #ck-e-depth (the engine's depth), #ck-legal,
//                   #ck-top (the top of the engine's tree: one tbody row per move)
//   Kalah           #kalah-side (south|north) #kalah-houses #kalah-seeds #kalah-rules #kalah-new
//                   #kalah-undo; #kalah-board[data-moves="1,2,…"] (the game so far) with
//                   [data-pit="0..2h+1"] (the API's order) holding .kalah-count, and the
//                   person's houses [data-house="1..h"] (class playable when clickable);
//                   #kalah-status, #kalah-last, #kalah-margin, #kalah-history li (.person /
//                   .computer)

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const BASE = process.env.GAMETREE_URL || 'http://127.0.0.1:8080/';
const SHOTS = process.env.SCREENSHOT_DIR || '';
const url = (path) => new URL(path, BASE).href;

// The machine may have two slow cores and a solver thinking: be patient, never sleep long.
const WAIT = 120_000;

let browser;
let failed = false;

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function assertEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

async function check(name, body) {
  if (failed) return;
  try {
    await body();
    console.log(`ok - ${name}`);
  } catch (err) {
    failed = true;
    console.log(`not ok - ${name}: ${String(err && err.message ? err.message : err).split('\n')[0]}`);
  }
}

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name) });
}

const text = async (page, selector) => (await page.textContent(selector)).trim();

async function classesOf(page, selector) {
  return page.$eval(selector, (el) => Array.from(el.classList));
}

/** Runs a search from the tree inspector's controls and waits until it is drawn. */
async function runSearch(page, tree, algorithm, second = null) {
  await page.fill('#tree-text', tree);
  await page.selectOption('#algorithm', algorithm);
  if (second) {
    await page.check('#compare');
    await page.selectOption('#algorithm-2', second);
  } else {
    await page.uncheck('#compare');
  }
  const runs = Number((await page.getAttribute('#views', 'data-runs')) || 0);
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/tree/search')),
    page.click('#run'),
  ]);
  await page.waitForFunction((n) => Number(document.querySelector('#views').dataset.runs || 0) > n, runs, { timeout: WAIT });
}

/** "step K of N" as numbers. */
async function stepLabel(page) {
  const match = /step (\d+) of (\d+)/.exec(await text(page, '#step-label'));
  assert(match, 'the step label does not say "step K of N"');
  return { step: Number(match[1]), total: Number(match[2]) };
}

/** Steps to the end with the → key, one event at a time, as a student would. */
async function stepToEndWithKeys(page) {
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const { step, total } = await stepLabel(page);
  for (let i = step; i < total; i++) await page.keyboard.press('ArrowRight');
  const after = await stepLabel(page);
  assertEqual(after.step, total, 'the step after pressing → to the end');
}

/** The paths of the nodes drawn with class `cut`, sorted. */
async function cutPaths(page, svg = '#svg-1') {
  return (await page.$$eval(`${svg} g.node.cut`, (nodes) => nodes.map((n) => n.dataset.path))).sort();
}

/** Every node under the moves of the cutoff events, from a /api/tree/search answer. */
function expectedCuts(answer) {
  const byKey = new Map();
  const stack = [answer.root];
  while (stack.length) {
    const node = stack.pop();
    byKey.set(node.path.join('.'), node);
    for (const child of node.children || []) stack.push(child);
  }
  const cut = new Set();
  for (const ev of answer.events.filter((e) => e.kind === 'cutoff')) {
    for (const move of ev.moves) {
      const below = [byKey.get([...ev.path, move].join('.'))];
      while (below.length) {
        const node = below.pop();
        cut.add(node.path.join('.'));
        for (const child of node.children || []) below.push(child);
      }
    }
  }
  return [...cut].sort();
}

/**
 * Clicks a game's "Open in inspector" and waits for the tree inspector to show the finished
 * search (`request`: the game's endpoint when the click must first ask for values).
 */
async function openTree(page, button, request = null) {
  const runs = Number((await page.getAttribute('#views', 'data-runs')) || 0);
  const waits = [page.waitForResponse((r) => r.url().endsWith('/api/tree/search'))];
  if (request) waits.push(page.waitForResponse((r) => r.url().endsWith(request)));
  await Promise.all([...waits, page.click(button)]);
  await page.waitForFunction((n) => Number(document.querySelector('#views').dataset.runs || 0) > n, runs, { timeout: WAIT });
  assert(await page.isVisible('#panel-tree'), 'the tree inspector is not shown');
  assert(await page.isVisible('#tree-source'), 'no note says where the tree came from');
  assertEqual(await page.inputValue('#algorithm'), 'minimax', 'the algorithm');
}

/** The children of the root drawn in the first view. */
async function rootChildren(page) {
  return page.$$eval('#svg-1 g.node', (nodes) => nodes.filter((n) => /^\d+$/.test(n.dataset.path)).length);
}

/** The value the first view shows, as a number (the page writes a real minus sign). */
async function shownValue(page) {
  const shown = (await text(page, '#result-value')).replace('−', '-');
  return Number(shown);
}

/** Kalah's pits as the board shows them, in the API's order. */
async function kalahPits(page) {
  return page.$$eval('#kalah-board [data-pit]', (els) => els
    .sort((a, b) => Number(a.dataset.pit) - Number(b.dataset.pit))
    .map((el) => Number(el.querySelector('.kalah-count').textContent)));
}

/** Waits until a game panel has finished its request (its `busy` class is gone). */
async function idle(page, panel) {
  await page.waitForSelector(`${panel}:not(.busy)`, { timeout: WAIT });
}

async function main() {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  const consoleErrors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });
  page.on('pageerror', (err) => consoleErrors.push(String(err)));
  // The browser logs each HTTP error answer as a console error; the checks that provoke
  // one on purpose (check 4) say so, and only those are forgiven.
  let expectedHttpErrors = 0;
  const unexpectedErrors = () => {
    const httpErrors = consoleErrors.filter((e) => /status of 4\d\d/.test(e));
    const others = consoleErrors.filter((e) => !/status of 4\d\d/.test(e));
    return httpErrors.length > expectedHttpErrors ? consoleErrors : others;
  };

  let defaultTree = '';

  await check('1. the page loads, shows its title, searches the default tree, logs no error', async () => {
    const response = await page.goto(url('/'), { waitUntil: 'load' });
    assert(response && response.ok(), `GET / answered ${response && response.status()}`);
    assert(await page.isVisible('#title'), 'the title is not visible');
    assert((await text(page, '#title')).includes('gametree'), 'the title does not say gametree');
    assert(await page.isVisible('#tab-tree') && await page.isVisible('#tab-checkers'), 'the tabs are not visible');
    await page.waitForFunction(() => Number(document.querySelector('#views').dataset.runs || 0) >= 1, null, { timeout: WAIT });
    defaultTree = await page.inputValue('#tree-text');
    assert(defaultTree.startsWith('('), 'no default tree in the textarea');
    assert(await page.locator('#svg-1 g.node').count() > 5, 'the default tree is not drawn');
    assert(await page.isHidden('#error'), 'the error box shows at load');
    assertEqual(unexpectedErrors(), [], 'console errors');
  });

  await check('2. alpha-beta on ((3 5) (2 9)) stepped with → cuts [2,2] only, value 3, 3 leaves', async () => {
    await runSearch(page, '((3 5) (2 9))', 'alphabeta');
    assertEqual(await stepLabel(page), { step: 0, total: (await stepLabel(page)).total }, 'the step after a run');
    await stepToEndWithKeys(page);
    assert((await classesOf(page, '#svg-1 g.node[data-path="2.2"]')).includes('cut'), 'node 2.2 is not cut');
    for (const path of ['', '1', '1.1', '1.2', '2', '2.1']) {
      assert(!(await classesOf(page, `#svg-1 g.node[data-path="${path}"]`)).includes('cut'), `node "${path}" is cut`);
    }
    assertEqual(await text(page, '#result-value'), '3', 'the value shown');
    assertEqual(await text(page, '#leaf-count'), '3', 'the leaves evaluated');
    assert((await classesOf(page, '#svg-1 g.node[data-path="1.1"]')).includes('line'), 'the principal line does not reach 1.1');
    assert((await classesOf(page, '#svg-1 g.node[data-path="2.1"]')).includes('proof'), '2.1 is not in the proof tree');
    const statusAtEnd = await text(page, '#status');
    await page.keyboard.press('ArrowLeft');
    const back = await stepLabel(page);
    assertEqual(back.step, back.total - 1, 'the step after ←');
    assert((await text(page, '#status')) !== statusAtEnd, 'the status line did not change after ←');
    assertEqual(await text(page, '#result-value'), '…', 'the value before the end');
    assert(!(await classesOf(page, '#svg-1 g.node[data-path="1.1"]')).includes('line'), 'the principal line still shows before the end');
  });

  await check('2b. on the default tree the cut nodes at the last step are those under the cutoff events', async () => {
    const answer = await (await page.request.post(url('/api/tree/search'), { data: { tree: defaultTree, algorithm: 'alphabeta' } })).json();
    const expected = expectedCuts(answer);
    assert(expected.length > 0, 'the default tree has no cutoff: it teaches nothing');
    await runSearch(page, defaultTree, 'alphabeta');
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('End');
    assertEqual(await cutPaths(page), expected, 'the cut nodes');
    assertEqual(await text(page, '#leaf-count'), String(answer.leaves), 'the leaves evaluated');
    await shot(page, 'tree-inspector.png');
  });

  await check('2c. alpha-beta cuts what hand computation gives (Wikipedia\'s tree)', async () => {
    // MAX root; MIN 1 gets 5 from (5 6) so (7 4 5) stops after 4 (4 ≤ α = 5); MIN 2.1.2
    // stops after its 6 (6 ≤ α = 6); MIN 3 gets 5 ≤ α = 6 from its first move and cuts
    // its second. Value 6, leaves 5 6 7 4 3 6 6 7 5.
    const tree = '((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))';
    await runSearch(page, tree, 'alphabeta');
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('End');
    assertEqual(await cutPaths(page), ['1.1.2.3', '2.1.2.2', '3.2', '3.2.1', '3.2.1.1', '3.2.1.2', '3.2.2', '3.2.2.1'], 'the cut nodes');
    assertEqual(await text(page, '#result-value'), '6', 'the value');
    assertEqual(await text(page, '#leaf-count'), '9', 'the leaves evaluated');
  });

  await check('3. minimax on ((3 5) (2 9)) cuts nothing and evaluates 4 leaves', async () => {
    await runSearch(page, '((3 5) (2 9))', 'minimax');
    await stepToEndWithKeys(page);
    assertEqual(await cutPaths(page), [], 'the cut nodes');
    assertEqual(await text(page, '#leaf-count'), '4', 'the leaves evaluated');
    assertEqual(await text(page, '#result-value'), '3', 'the value');
  });

  await check('4. a malformed tree shows the server\'s message; the page works afterwards', async () => {
    const bad = '((3 5) (2';
    const answer = await page.request.post(url('/api/tree/search'), { data: { tree: bad, algorithm: 'alphabeta' } });
    assertEqual(answer.status(), 400, 'the HTTP status of a malformed tree');
    const message = (await answer.json()).error;
    assert(typeof message === 'string' && message.length > 0, 'the 400 answer has no error message');
    expectedHttpErrors++;
    await page.fill('#tree-text', bad);
    await page.selectOption('#algorithm', 'alphabeta');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/tree/search')), page.click('#run')]);
    await page.waitForSelector('#error', { state: 'visible' });
    const shown = await text(page, '#error-text');
    assert(shown.includes(message), `the error box says "${shown}", not the server's "${message}"`);
    const color = await page.$eval('#error', (el) => getComputedStyle(el).color);
    const [r, g, b] = color.match(/\d+/g).map(Number);
    assert(r > 120 && r > 2 * g && r > 2 * b, `the error is not red (${color})`);
    await runSearch(page, '((3 5) (2 9))', 'alphabeta');
    assert(await page.isHidden('#error'), 'the error box stays after a good run');
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('End');
    assertEqual(await text(page, '#result-value'), '3', 'the value after the error');
  });

  await check('5. compare: minimax and alpha-beta side by side evaluate 4 and 3 leaves', async () => {
    await runSearch(page, '((3 5) (2 9))', 'minimax', 'alphabeta');
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('End');
    assertEqual(await text(page, '#leaf-count'), '4', 'the leaves of minimax');
    assertEqual(await text(page, '#leaf-count-2'), '3', 'the leaves of alpha-beta');
    const one = await page.locator('#view-1').boundingBox();
    const two = await page.locator('#view-2').boundingBox();
    assert(one && two && Math.abs(one.y - two.y) < 2 && two.x > one.x + one.width / 2, 'the two views are not side by side');
    assertEqual(await cutPaths(page, '#svg-2'), ['2.2'], 'the cut nodes of alpha-beta');
    // Half way, the linked stepping shows both searches at the same step.
    await page.keyboard.press('Home');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    assert((await text(page, '#status')).startsWith('6.'), 'the first view is not at step 6');
    assert((await text(page, '#status-2')).startsWith('6.'), 'the second view is not at step 6');
    await runSearch(page, defaultTree, 'minimax', 'alphabeta');
    await page.keyboard.press('End');
    await shot(page, 'tree-compare.png');
    await page.uncheck('#compare');
  });

  await check('6. Connect Four: a whole game by clicking ends with the solver\'s win or a draw', async () => {
    await page.click('#tab-c4');
    await idle(page, '#panel-c4');
    await page.selectOption('#c4-side', 'first');
    await page.check('#c4-show-scores');
    await page.click('#c4-new');
    await idle(page, '#panel-c4');
    let moves = 0;
    for (; moves < 30; moves++) {
      if ((await text(page, '#c4-status')).includes('Game over')) break;
      // A simple rule: the leftmost column not full.
      const column = page.locator('#c4-board button.c4-col.playable').first();
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/connect4/move')), column.click()]);
      await idle(page, '#panel-c4');
      assert(await page.isHidden('#error'), `an error after move ${moves + 1}: ${await text(page, '#error-text')}`);
      if (moves === 0) {
        const scores = await page.$$eval('#c4-scores [data-score-col]', (cells) => cells.map((c) => c.textContent.trim()));
        assert(scores.filter((s) => s !== '').length === 7, `the scores above the board: ${JSON.stringify(scores)}`);
      }
    }
    const status = await text(page, '#c4-status');
    assert(/Game over: (the computer wins|a draw)/.test(status), `the status at the end: "${status}"`);
    const discs = await page.locator('#c4-board .c4-cell.red, #c4-board .c4-cell.yellow').count();
    assert(discs >= 7, `only ${discs} discs on the board`);
    await shot(page, 'connect-four.png');
  });

  await check('6b. Connect Four: undo takes back the last pair of moves', async () => {
    await page.click('#c4-new');
    await idle(page, '#panel-c4');
    for (let i = 0; i < 2; i++) {
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/connect4/move')), page.click('#c4-board [data-col="4"]')]);
      await idle(page, '#panel-c4');
    }
    const count = () => page.locator('#c4-board .c4-cell.red, #c4-board .c4-cell.yellow').count();
    assertEqual(await count(), 4, 'discs after two moves each');
    await page.click('#c4-undo');
    assertEqual(await count(), 2, 'discs after undo');
  });

  await check('6c. Connect Four: open in inspector asks for the scores it lacks and shows one child per column', async () => {
    await page.click('#tab-c4');
    await idle(page, '#panel-c4');
    await page.uncheck('#c4-show-scores');
    await page.selectOption('#c4-side', 'first');
    await page.click('#c4-new');
    await idle(page, '#panel-c4');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/connect4/move')), page.click('#c4-board [data-col="4"]')]);
    await idle(page, '#panel-c4');
    const answer = await (await page.request.post(url('/api/connect4/move'), { data: { moves: '4', scores: true } })).json();
    const legal = answer.scores.filter((s) => s !== null);
    const range = (s) => (typeof s === 'number' ? [s, s] : [s.at_least, s.at_most]);
    const values = legal.map((s) => Math.round((range(s)[0] + range(s)[1]) / 2));
    await openTree(page, '#c4-open-tree', '/api/connect4/move');
    assertEqual(await rootChildren(page), legal.length, 'the children of the root');
    assertEqual(await shownValue(page), Math.max(...values), 'the minimax value');
    assert((await text(page, '#tree-source')).includes('1 = column 1'), `the note: "${await text(page, '#tree-source')}"`);
  });

  await check('7. checkers: a multi-jump clicked square by square, then an opening move and the engine\'s reply', async () => {
    await page.click('#tab-checkers');
    await idle(page, '#panel-checkers');
    const fen = 'B:W14,23:B9';
    const state = await (await page.request.post(url('/api/checkers/state'), { data: { fen, moves: [] } })).json();
    assertEqual(state.to_move, 'black', 'the side to move in the FEN');
    const jump = state.legal.find((m) => m.path.length >= 3);
    assert(jump, `no multi-jump among ${JSON.stringify(state.legal)}`);
    await page.fill('#ck-depth', '4');
    await page.selectOption('#ck-side', 'black');
    await idle(page, '#panel-checkers');
    await page.fill('#ck-fen', fen);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/state')), page.click('#ck-new')]);
    await idle(page, '#panel-checkers');
    const start = await classesOf(page, `#ck-board [data-square="${jump.path[0]}"]`);
    assert(start.includes('start'), `square ${jump.path[0]} is not marked as a start square`);
    for (let i = 0; i < jump.path.length; i++) {
      const square = `#ck-board [data-square="${jump.path[i]}"]`;
      if (i === jump.path.length - 1) {
        await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/state')), page.click(square)]);
      } else {
        await page.click(square);
        if (i > 0) assert(await page.locator(`${square}.selected`).count() === 1, `square ${jump.path[i]} is not selected after its click`);
      }
    }
    await idle(page, '#panel-checkers');
    assert((await text(page, '#ck-history')).includes(jump.text), `the history does not show ${jump.text}`);
    const whites = await page.locator('#ck-board .piece.white').count();
    assertEqual(whites, 0, 'white pieces left after the double jump');
    const landed = await page.locator(`#ck-board [data-square="${jump.path[jump.path.length - 1]}"] .piece.black`).count();
    assertEqual(landed, 1, 'black pieces on the landing square');

    // The start position, an ordinary move entered with two clicks, and the engine's reply.
    await page.fill('#ck-fen', '');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/state')), page.click('#ck-new')]);
    await idle(page, '#panel-checkers');
    assertEqual(await page.locator('#ck-board .piece.black').count(), 12, 'black pieces at the start');
    await page.click('#ck-board [data-square="11"]');
    assert((await classesOf(page, '#ck-board [data-square="15"]')).includes('target'), 'square 15 is not offered after 11');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/best'), { timeout: WAIT }), page.click('#ck-board [data-square="15"]')]);
    await idle(page, '#panel-checkers');
    const history = await text(page, '#ck-history');
    assert(history.includes('11-15'), `the history does not show 11-15: "${history}"`);
    assertEqual(await text(page, '#ck-e-depth'), '4', 'the engine\'s depth');
    assert((await page.$$eval('#ck-history .ck-h-move.engine', (n) => n.length)) === 1, 'the engine\'s reply is not in the history');
    assertEqual(await page.locator('#ck-board [data-square="15"] .piece.black').count(), 1, 'the black man on 15');
    await shot(page, 'checkers.png');
    // The PDN download holds the game.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#ck-pdn')]);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    assert(readFileSync(path, 'utf8').includes('11-15'), 'the PDN file does not hold 11-15');
    // Undo goes back to before the person's move.
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/state')), page.click('#ck-undo')]);
    await idle(page, '#panel-checkers');
    assertEqual(await page.locator('#ck-history .ck-h-move').count(), 0, 'moves in the history after undo');
    assertEqual(await page.locator('#ck-board [data-square="11"] .piece.black').count(), 1, 'the black man back on 11');
  });

  await check('7b. checkers: open in inspector after the engine\'s reply at depth 4 shows the top of its tree', async () => {
    await page.click('#tab-checkers');
    await idle(page, '#panel-checkers');
    await page.fill('#ck-depth', '4');
    await page.fill('#ck-fen', '');
    await page.selectOption('#ck-side', 'black');
    await idle(page, '#panel-checkers');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/state')), page.click('#ck-new')]);
    await idle(page, '#panel-checkers');
    await page.click('#ck-board [data-square="11"]');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/checkers/best'), { timeout: WAIT }),
      page.click('#ck-board [data-square="15"]'),
    ]);
    const answer = await response.json();
    await idle(page, '#panel-checkers');
    const top = answer.top.moves;
    assert(top.length > 0, 'the engine\'s answer has no top of the tree');
    assertEqual(await page.locator('#ck-top tbody tr').count(), top.length, 'the rows of the top table');
    assert(await page.isVisible('#ck-top'), 'the top table is hidden');
    await openTree(page, '#ck-open-tree');
    assertEqual(await rootChildren(page), top.length, 'the children of the root');
    assertEqual(await shownValue(page), Math.max(...top.map((m) => m.value)), 'the minimax value');
    const note = await text(page, '#tree-source');
    assert(note.includes(`1 = ${top[0].move}`) && note.includes(`${top.length} = ${top[top.length - 1].move}`), `the note: "${note}"`);
  });

  await check('7c. checkers: Stop ends a 10-second search at once, and "Engine, move" asks again', async () => {
    await page.click('#tab-checkers');
    await idle(page, '#panel-checkers');
    await page.fill('#ck-fen', '');
    await page.selectOption('#ck-side', 'black');
    await page.selectOption('#ck-mode', 'time');
    await page.fill('#ck-time', '10');
    await idle(page, '#panel-checkers');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/state')), page.click('#ck-new')]);
    await idle(page, '#panel-checkers');
    await page.click('#ck-board [data-square="11"]');
    const asked = page.waitForRequest((r) => r.url().endsWith('/api/checkers/best'));
    await page.click('#ck-board [data-square="15"]');
    await asked;
    await page.waitForSelector('#ck-stop:not([hidden])', { timeout: WAIT });
    const stoppedAt = Date.now();
    await page.click('#ck-stop');
    await idle(page, '#panel-checkers');
    assert(Date.now() - stoppedAt < 5000, 'the page waited for the search after Stop');
    const status = await text(page, '#ck-status');
    assert(status.startsWith('Stopped'), `the status after Stop: "${status}"`);
    assert(!(await page.isVisible('#error')), 'Stop showed an error');
    assert(await page.isVisible('#ck-go'), '"Engine, move" is not offered after Stop');
    assertEqual(await page.locator('#ck-history .ck-h-move.engine').count(), 0, 'engine moves after Stop');
    // Ask again, quickly this time: the server's slot was freed by the stopped search.
    await page.selectOption('#ck-mode', 'depth');
    await page.fill('#ck-depth', '2');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/checkers/best'), { timeout: WAIT }), page.click('#ck-go')]);
    await idle(page, '#panel-checkers');
    assertEqual(await page.locator('#ck-history .ck-h-move.engine').count(), 1, 'engine moves after "Engine, move"');
    assert(!(await page.isVisible('#ck-go')), '"Engine, move" is still offered after the engine moved');
    await page.fill('#ck-depth', '4');
  });

  await check('8. tic-tac-toe: playing X to the end, the program never loses', async () => {
    await page.click('#tab-ttt');
    await idle(page, '#panel-ttt');
    await page.selectOption('#ttt-side', 'X');
    await page.click('#ttt-new');
    await idle(page, '#panel-ttt');
    for (let i = 0; i < 5; i++) {
      if ((await text(page, '#ttt-status')).includes('Game over')) break;
      const cell = page.locator('#ttt-board [data-square].playable').first();
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/ttt/move')), cell.click()]);
      await idle(page, '#panel-ttt');
      assert(await page.isHidden('#error'), `an error: ${await text(page, '#error-text')}`);
    }
    const status = await text(page, '#ttt-status');
    assert(/Game over: (a draw|.*the computer wins)/.test(status), `the status at the end: "${status}"`);
    // Values on request: every empty square of a new game gets one.
    await page.check('#ttt-values');
    await page.click('#ttt-new');
    await page.waitForFunction(() => document.querySelectorAll('#ttt-board .sq-value:not(:empty)').length === 9, null, { timeout: WAIT });
    await page.uncheck('#ttt-values');
  });

  await check('8b. tic-tac-toe: open in inspector shows O\'s choices as MAX\'s (X\'s values negated)', async () => {
    await page.click('#tab-ttt');
    await idle(page, '#panel-ttt');
    await page.uncheck('#ttt-values');
    await page.selectOption('#ttt-side', 'X');
    await page.click('#ttt-new');
    await idle(page, '#panel-ttt');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/ttt/move')), page.click('#ttt-board [data-square="1"]')]);
    const answer = await response.json();
    await idle(page, '#panel-ttt');
    assertEqual(answer.values.length, 8, 'the values of O\'s squares');
    await openTree(page, '#ttt-open-tree');
    assertEqual(await rootChildren(page), 8, 'the children of the root');
    assertEqual(await shownValue(page), Math.max(...answer.values.map((v) => -v.value)), 'the minimax value');
    assertEqual(await shownValue(page), -answer.value, 'the minimax value against the API\'s value for X');
    assert((await text(page, '#tree-source')).includes('1 = square 2'), `the note: "${await text(page, '#tree-source')}"`);
  });

  await check('8c. Kalah(3,3): house 1 sows into the store (another move, the computer waits), then a whole game ends as the API says', async () => {
    await page.click('#tab-kalah');
    await idle(page, '#panel-kalah');
    await page.selectOption('#kalah-side', 'south');
    await idle(page, '#panel-kalah');
    await page.selectOption('#kalah-houses', '3');
    await idle(page, '#panel-kalah');
    await page.selectOption('#kalah-seeds', '3');
    await idle(page, '#panel-kalah');
    await page.selectOption('#kalah-rules', 'irving');
    await page.click('#kalah-new');
    await idle(page, '#panel-kalah');
    assertEqual(await kalahPits(page), [3, 3, 3, 0, 3, 3, 3, 0], 'the pits at the start');
    assertEqual(await page.locator('#kalah-board [data-house].playable').count(), 3, 'the playable houses at the start');
    let requests = 0;
    const count = (r) => { if (r.url().endsWith('/api/kalah/move')) requests++; };
    page.on('request', count);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/kalah/move')), page.click('#kalah-board [data-house="1"]')]);
    await idle(page, '#panel-kalah');
    await page.waitForTimeout(300);
    page.off('request', count);
    assertEqual(await kalahPits(page), [0, 4, 4, 1, 3, 3, 3, 0], 'the pits after house 1');
    assert(/another move/i.test(await text(page, '#kalah-status')), `the status after house 1: "${await text(page, '#kalah-status')}"`);
    assertEqual(requests, 1, 'requests after house 1 (the computer must not move)');
    assertEqual(await page.locator('#kalah-history li').count(), 1, 'moves in the history after house 1');
    assertEqual(await text(page, '#kalah-last'), '—', 'the computer\'s last move');
    assert((await classesOf(page, '#kalah-board [data-house="2"]')).includes('playable'), 'house 2 is not playable');
    for (let i = 0; i < 30; i++) {
      if ((await text(page, '#kalah-status')).includes('Game over')) break;
      const house = page.locator('#kalah-board [data-house].playable').first();
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/kalah/move')), house.click()]);
      await idle(page, '#panel-kalah');
      assert(await page.isHidden('#error'), `an error: ${await text(page, '#error-text')}`);
    }
    const status = await text(page, '#kalah-status');
    assert(status.startsWith('Game over'), `the status at the end: "${status}"`);
    const moves = (await page.getAttribute('#kalah-board', 'data-moves')).split(',').map(Number);
    const answer = await (await page.request.post(url('/api/kalah/move'), { data: { houses: 3, seeds: 3, rules: 'irving', moves } })).json();
    assert(typeof answer.ending === 'string' && answer.ending.length > 0, `the API's answer for the game: ${JSON.stringify(answer)}`);
    assert(status.includes(answer.ending), `the status "${status}" does not say "${answer.ending}"`);
    assertEqual(await kalahPits(page), answer.pits, 'the pits at the end');
    assertEqual(await page.locator('#kalah-history li').count(), moves.length, 'moves in the history');
    assertEqual(await page.locator('#kalah-board [data-house].playable').count(), 0, 'playable houses after the end');
  });

  await check('8d. Kalah(6,4): keys play houses, the computer answers, undo goes back to before the person\'s last move', async () => {
    await page.selectOption('#kalah-houses', '6');
    await idle(page, '#panel-kalah');
    await page.selectOption('#kalah-seeds', '4');
    await idle(page, '#panel-kalah');
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    // House 3's four seeds end in the store: another move, and the computer waits.
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/kalah/move')), page.keyboard.press('3')]);
    await idle(page, '#panel-kalah');
    assertEqual(await page.locator('#kalah-history li').count(), 1, 'moves after house 3');
    assertEqual(await kalahPits(page), [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0], 'the pits after house 3');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/kalah/move')), page.keyboard.press('6')]);
    await idle(page, '#panel-kalah');
    const computer = await page.locator('#kalah-history li.computer').count();
    assert(computer >= 1, 'the computer did not move');
    assert((await text(page, '#kalah-last')).includes('North'), `the computer's last move: "${await text(page, '#kalah-last')}"`);
    assert(/exact|bounds/.test(await text(page, '#kalah-margin')), `the margin: "${await text(page, '#kalah-margin')}"`);
    assert(/Your move|Another move/.test(await text(page, '#kalah-status')), `the status: "${await text(page, '#kalah-status')}"`);
    await page.mouse.move(0, 0);
    await shot(page, 'kalah.png');
    await page.click('#kalah-undo');
    assertEqual(await page.locator('#kalah-history li').count(), 1, 'moves after undo');
    assertEqual(await kalahPits(page), [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0], 'the pits after undo');
    assertEqual(await text(page, '#kalah-last'), '—', 'the computer\'s last move after undo');
  });

  await check('9. the theme toggle (button and key t) switches data-theme on <html>', async () => {
    const theme = () => page.getAttribute('html', 'data-theme');
    const before = await theme();
    assert(before === 'light' || before === 'dark', `data-theme is "${before}"`);
    await page.click('#theme-toggle');
    const after = await theme();
    assert(after !== before && (after === 'light' || after === 'dark'), `data-theme went from ${before} to ${after}`);
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('t');
    assertEqual(await theme(), before, 'data-theme after the key t');
    await page.click('#theme-toggle');
    await page.reload({ waitUntil: 'load' });
    assertEqual(await theme(), after, 'data-theme after a reload (remembered)');
    await page.evaluate(() => localStorage.clear());
  });

  await check('10. no unexpected console error', async () => {
    assertEqual(unexpectedErrors(), [], 'console errors');
  });
}

try {
  await main();
} catch (err) {
  failed = true;
  console.log(`not ok - setting up: ${err.message}`);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
