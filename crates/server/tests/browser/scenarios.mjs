// Browser scenarios for the workbench page, run against a live `puzzle serve`:
//   node scenarios.mjs 'http://127.0.0.1:PORT/?token=TOKEN' [--screenshots DIR] [--only REGEX]
// Each scenario gets a fresh browser context and finds elements by role and label. The browser
// may only reach the server's host. Prints `ok NAME` / `FAIL NAME: message` per scenario and a
// last line `N passed, M failed`; exits non-zero when one fails. Failures leave a screenshot in
// target/browser-failures/ (or DIR).

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WHOLE_RUN_LIMIT_MS = 240_000;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

function parseArguments(argv) {
  const options = { base: null, screenshots: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--screenshots') options.screenshots = argv[++i];
    else if (argv[i] === '--only') options.only = new RegExp(argv[++i], 'i');
    else if (!options.base) options.base = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!options.base) throw new Error('usage: node scenarios.mjs BASE_URL_WITH_TOKEN [--screenshots DIR]');
  return options;
}

const options = parseArguments(process.argv.slice(2));
const baseUrl = new URL(options.base);
const token = baseUrl.searchParams.get('token');
const failureDir = path.resolve(options.screenshots ?? path.join(REPO_ROOT, 'target/browser-failures'));

// ---------------------------------------------------------------------------------------------
// Helpers

/** Polls `check` until it returns a truthy value; throws `message` after `timeoutMs`. */
async function eventually(check, message, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = null;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${message}${lastError ? ` (${lastError.message.split('\n')[0]})` : ''}`);
}

async function counters(page) {
  const moves = await page.getByLabel('Moves', { exact: true }).textContent();
  const pushes = await page.getByLabel('Pushes', { exact: true }).textContent();
  return `${moves.trim()}/${pushes.trim()}`;
}

async function expectCounters(page, expected, when) {
  await eventually(async () => (await counters(page)) === expected,
    `${when}: Moves/Pushes should be ${expected}, are ${await counters(page).catch(() => '?')}`);
}

function solvedStatus(page) {
  return page.getByRole('status').filter({ hasText: 'Solved!' });
}

/** Opens the page with the token and waits until the board of Microban 1 is drawn. */
async function openSokoban(page) {
  await page.goto(options.base);
  await page.getByRole('heading', { name: 'Sokoban', level: 1 }).waitFor();
  await page.getByRole('img', { name: /Sokoban board/ }).waitFor();
}

/** The server API from the test itself (for the reference solution only). */
async function apiCall(pathname, body) {
  const response = await fetch(new URL(`/api/${pathname}`, baseUrl), {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return response;
}

/** Solves Microban 1 with a `sokoban_solve` job and returns its LURD solution. */
async function microbanOneSolution() {
  const set = await (await apiCall('sokoban/sets/microban')).json();
  const response = await apiCall('jobs', { job: 'sokoban_solve', xsb: set.levels[0].xsb, level: 1, time_limit: 10 });
  const text = await response.text();
  for (const block of text.split(/\r?\n\r?\n/)) {
    const event = /^event: ?(.*)$/m.exec(block)?.[1];
    const data = /^data: ?(.*)$/m.exec(block)?.[1];
    if (event === 'result') {
      const result = JSON.parse(data);
      if (result.solved && result.solution) return result.solution;
    }
  }
  throw new Error(`no solution in the job stream: ${text.slice(0, 300)}`);
}

const SUDOKU_EASY = '..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..';

/** Opens the Sudoku page and loads `puzzle` (one line) through the paste box. */
async function openSudokuWith(page, puzzle) {
  await page.goto(`${options.base}#/sudoku`);
  await page.getByRole('heading', { name: 'Sudoku', level: 1 }).waitFor();
  await page.getByRole('grid', { name: 'Sudoku grid' }).waitFor();
  await page.getByLabel('Paste puzzle').fill(puzzle);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await page.getByText('Puzzle: pasted #1, 32 clues').waitFor();
}

const KEYS = { l: ['ArrowLeft', 'a'], u: ['ArrowUp', 'w'], r: ['ArrowRight', 'd'], d: ['ArrowDown', 's'] };

async function saveScreenshot(page, name) {
  if (!options.screenshots) return;
  mkdirSync(options.screenshots, { recursive: true });
  await page.screenshot({ path: path.join(options.screenshots, name), fullPage: true });
}

/** The two window sizes every page must fit without scrolling sideways: a phone and a laptop. */
const WINDOW_SIZES = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];

/** Throws when the document scrolls sideways, naming the widest elements that stick out. */
async function expectNoSideScroll(page, when) {
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const root = document.documentElement;
    const out = [...document.querySelectorAll('body *')]
      .filter((node) => node.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(0, 3)
      .map((node) => `${node.tagName.toLowerCase()}.${node.getAttribute('class') ?? ''}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: out };
  });
  if (scrollWidth > clientWidth) {
    throw new Error(`${when}: the page scrolls sideways (${scrollWidth} > ${clientWidth} px: ${culprits.join(', ')})`);
  }
}

/** Checks the page as it is now at both window sizes. */
async function expectFitsBothSizes(page, when) {
  for (const size of WINDOW_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(100);
    await expectNoSideScroll(page, `${when} at ${size.width}×${size.height}`);
  }
}

/** Opens the SameGame page and waits until standard board 1 is drawn. */
async function openSameGame(page) {
  await page.goto(`${options.base}#/samegame`);
  await page.getByRole('heading', { name: 'SameGame', level: 1 }).waitFor();
  await page.getByRole('img', { name: /^SameGame board 15 by 15: 225 stones/ }).waitFor();
}

async function sameGameScore(page) {
  return Number((await page.getByLabel('Score', { exact: true }).textContent()).trim());
}

/** The page coordinates of the centre of cell [col, row] of the SameGame board. */
async function sameGameCellCentre(page, [col, row], width, height) {
  const box = await page.getByRole('img', { name: /^SameGame board/ }).boundingBox();
  return { x: box.x + ((col + 0.5) * box.width) / width, y: box.y + ((row + 0.5) * box.height) / height };
}

/** The JSON Schema of job `name`'s request, as `GET /api/jobs` serves it to the page. */
async function jobSchema(name) {
  const { jobs } = await (await apiCall('jobs')).json();
  const job = jobs.find((j) => j.name === name);
  if (!job) throw new Error(`GET /api/jobs lists no ${name}`);
  return job.schema;
}

/** The values a schema property takes, through its `$ref` (the choices of an enum). */
function schemaChoices(schema, property) {
  const ref = property.$ref ?? property.anyOf?.find((p) => p.$ref)?.$ref;
  const node = ref ? schema.$defs[ref.split('/').pop()] : property;
  return node.oneOf ? node.oneOf.map((choice) => choice.const) : node.enum;
}

/** The events of a server-sent event stream's text: [{event, data}]. */
function sseEvents(text) {
  return text.split(/\r?\n\r?\n/).map((block) => ({
    event: /^event: ?(.*)$/m.exec(block)?.[1],
    data: /^data: ?(.*)$/m.exec(block)?.[1],
  })).filter((e) => e.event && e.data !== undefined).map((e) => {
    try { return { event: e.event, data: JSON.parse(e.data) }; } catch { return { event: e.event, data: e.data }; }
  });
}

/** Opens the test-set page and waits until the bundled sets are listed. */
async function openTestSets(page) {
  await page.goto(`${options.base}#/testsets`);
  await page.getByRole('heading', { name: 'Test sets', level: 1 }).waitFor();
  await page.getByLabel('Set', { exact: true }).locator('option[value="microban"]').waitFor({ state: 'attached' });
}

/** The body rows of the test-set results table. */
function resultRows(page) {
  return page.getByRole('table', { name: /^Results/ }).locator('tbody tr');
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const scenarios = [
  {
    name: 'opens on Microban level 1',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      if (page.url().includes('token=')) throw new Error(`the token is still in the URL: ${page.url()}`);
      await eventually(async () => (await page.getByLabel('Level set').inputValue()) === 'microban', 'the level set should be Microban');
      await eventually(async () => (await page.getByLabel('Level', { exact: true }).inputValue()) === '0', 'the first level should be chosen');
      await expectCounters(page, '0/0', 'at the start');
      await page.getByRole('link', { name: 'Generate' }).waitFor();
    },
  },
  {
    name: 'plays Microban 1 to Solved! with the keyboard',
    limitMs: 40_000,
    async run(page) {
      const solution = await microbanOneSolution();
      await openSokoban(page);
      await page.getByRole('application', { name: 'Board' }).focus();
      const pushes = solution.replace(/[lurd]/g, '').length;
      for (const [i, move] of [...solution].entries()) {
        await page.keyboard.press(KEYS[move.toLowerCase()][i % 2]); // arrows and WASD in turn
      }
      await solvedStatus(page).waitFor({ timeout: 15_000 });
      await expectCounters(page, `${solution.length}/${pushes}`, 'after the solution');
    },
  },
  {
    name: 'the level browser marks a played level solved, and Solved! leads to the next level',
    limitMs: 40_000,
    async run(page) {
      const solution = await microbanOneSolution();
      await openSokoban(page);
      const browser = page.getByRole('list', { name: 'Level browser' });
      await browser.getByRole('button', { name: /^Level 1: not solved$/ }).waitFor();
      await page.getByRole('application', { name: 'Board' }).focus();
      for (const move of solution) await page.keyboard.press(KEYS[move.toLowerCase()][0]);
      await solvedStatus(page).waitFor({ timeout: 15_000 });
      const pushes = solution.replace(/[lurd]/g, '').length;
      await browser.getByRole('button', { name: `Level 1: solved, best ${solution.length} moves, ${pushes} pushes` }).waitFor();
      await page.getByText(`Solved: best ${solution.length} moves, ${pushes} pushes.`).waitFor();
      await saveScreenshot(page, 'sokoban-browser.png');
      // The kept best replays on request.
      await page.getByRole('button', { name: 'Restart' }).click();
      await page.getByRole('button', { name: 'Replay my best solution' }).click();
      await page.getByText(`Replaying your best: ${solution.length} moves, ${pushes} pushes.`).waitFor();
      await solvedStatus(page).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Play next level' }).click();
      await page.getByText('Level: 2', { exact: true }).waitFor();
      await expectCounters(page, '0/0', 'on the next level');
      await eventually(async () => (await page.getByLabel('Level', { exact: true }).inputValue()) === '1', 'the level menu should show level 2');
      // N and P move through the set from the keyboard.
      await page.getByRole('application', { name: 'Board' }).focus();
      await page.keyboard.press('n');
      await page.getByText('Level: 3', { exact: true }).waitFor();
      await page.keyboard.press('p');
      await page.getByText('Level: 2', { exact: true }).waitFor();
      // The record outlives the visit: level 1 is still marked solved after a reload.
      await page.reload();
      await page.getByText('Level: 2', { exact: true }).waitFor();
      await page.getByRole('list', { name: 'Level browser' })
        .getByRole('button', { name: `Level 1: solved, best ${solution.length} moves, ${pushes} pushes` }).waitFor();
    },
  },
  {
    name: 'a pasted LURD replays to Solved! without counting as a solve of the player',
    limitMs: 30_000,
    async run(page) {
      const solution = await microbanOneSolution();
      await openSokoban(page);
      await page.getByLabel('Paste a LURD solution').fill('rrX');
      await page.getByRole('button', { name: 'Replay LURD' }).click();
      // A refusal is an error, said once.
      const refusal = page.getByRole('alert').filter({ hasText: /^That LURD does not replay: .*step 3/ });
      await refusal.waitFor();
      const said = await refusal.textContent();
      if (/does not replay.*does not replay/.test(said)) throw new Error(`the refusal repeats itself: ${said}`);
      await page.getByLabel('Paste a LURD solution').fill(solution);
      await page.getByRole('button', { name: 'Replay LURD' }).click();
      await page.getByText(/\(it solves the level\)\.$/).waitFor();
      await solvedStatus(page).waitFor({ timeout: 20_000 });
      const pushes = solution.replace(/[lurd]/g, '').length;
      await expectCounters(page, `${solution.length}/${pushes}`, 'at the end of the replay');
      // Watching a pasted solution is not the player's own solve: the level stays unsolved.
      await page.getByRole('list', { name: 'Level browser' })
        .getByRole('button', { name: /^Level 1: not solved$/ }).waitFor();
    },
  },
  {
    name: 'on a touch screen a swipe steps and a drag pushes a box',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      await page.getByLabel('Paste XSB').fill('#######\n#     #\n# @$  #\n#     #\n#.    #\n#######\n');
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      const board = page.getByRole('img', { name: /^Sokoban board 7 by 6: 1 boxes, 0 on goals/ });
      await board.waitFor();
      const box = await board.boundingBox();
      const centre = ([x, y]) => ({ x: box.x + ((x + 0.5) * box.width) / 7, y: box.y + ((y + 0.5) * box.height) / 6 });
      // A finger on the board, as the browser reports it (pointer events of type touch).
      const finger = (from, to) => page.getByRole('application', { name: 'Board' }).evaluate((holder, [a, b]) => {
        const fire = (type, p) => holder.dispatchEvent(new PointerEvent(type, {
          pointerType: 'touch', clientX: p.x, clientY: p.y, bubbles: true, isPrimary: true,
        }));
        fire('pointerdown', a);
        fire('pointerup', b);
      }, [from, to]);
      const player = centre([2, 2]);
      await finger(player, { x: player.x, y: player.y + 60 });
      await expectCounters(page, '1/0', 'after a swipe down');
      await finger(centre([3, 2]), centre([1, 4]));
      await solvedStatus(page).waitFor();
      await eventually(async () => (await page.getByLabel('Pushes', { exact: true }).textContent()).trim() === '4',
        'the drag should push the box to the goal in 4 pushes');
    },
  },
  {
    name: 'a box is pushed with the mouse: click it, then its target square',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      await page.getByLabel('Paste XSB').fill('#######\n#     #\n# @$  #\n#     #\n#.    #\n#######\n');
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      const board = page.getByRole('img', { name: /^Sokoban board 7 by 6: 1 boxes, 0 on goals/ });
      await board.waitFor();
      const box = await board.boundingBox();
      const centre = ([x, y]) => ({ x: box.x + ((x + 0.5) * box.width) / 7, y: box.y + ((y + 0.5) * box.height) / 6 });
      const boxCell = centre([3, 2]);
      await page.mouse.click(boxCell.x, boxCell.y);
      await page.getByText('Box picked: click the square to push it to.').waitFor();
      const goal = centre([1, 4]);
      await page.mouse.click(goal.x, goal.y);
      await solvedStatus(page).waitFor();
      await eventually(async () => (await page.getByLabel('Pushes', { exact: true }).textContent()).trim() === '4',
        'the fewest pushes (4) should have been played');
      await page.getByRole('button', { name: 'Undo' }).click();
      await expectCounters(page, '0/0', 'after undoing the mouse push');
    },
  },
  {
    name: 'a reload keeps the chosen set and level',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      await page.getByLabel('Level set').selectOption('xsokoban');
      await page.getByText('Level: screen.01', { exact: true }).waitFor();
      await page.getByLabel('Level', { exact: true }).selectOption('4');
      await page.getByText('Level: screen.05', { exact: true }).waitFor();
      await page.reload();
      await page.getByRole('img', { name: /Sokoban board/ }).waitFor();
      await page.getByText('Level: screen.05', { exact: true }).waitFor();
      await eventually(async () => (await page.getByLabel('Level set').inputValue()) === 'xsokoban', 'the set should still be XSokoban');
      await eventually(async () => (await page.getByLabel('Level', { exact: true }).inputValue()) === '4', 'the level should still be 5');
      // The plain link (no set in it) opens where the player left off too.
      await page.goto(options.base);
      await page.getByText('Level: screen.05', { exact: true }).waitFor();
      // A shared link carries the level's title.
      await page.getByRole('button', { name: 'Share link' }).click();
      const link = await page.getByLabel('Link to this level').inputValue();
      if (!new URL(link).hash.includes('title=')) throw new Error(`the share link has no title: ${link}`);
    },
  },
  {
    name: 'the editor: draw a small level, solve it, check it, generate from it, play it to Solved!',
    limitMs: 60_000,
    async run(page) {
      await page.goto(`${options.base}#/editor`);
      await page.getByRole('heading', { name: 'Sokoban level editor', level: 1 }).waitFor();
      const board = page.getByRole('img', { name: 'Level being drawn, 7 by 5' });
      await board.waitFor();
      // It opens on a level, without an error, and checks the drawing without failed requests.
      const failed = [];
      page.on('response', (r) => { if (r.url().includes('/api/') && r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
      const valid = page.getByRole('status').filter({ hasText: 'Valid level: 1 box, 7×5.' });
      await valid.waitFor();
      const error = page.getByRole('alert').filter({ hasText: /player/ });
      if (await error.isVisible()) throw new Error('the editor should open without an error');
      const box = await board.boundingBox();
      const click = async ([x, y]) => page.mouse.click(box.x + ((x + 0.5) * box.width) / 7, box.y + ((y + 0.5) * box.height) / 5);
      // Floor over the player: the parser's own message, then the player back.
      await page.getByLabel('Floor', { exact: true }).check();
      await click([1, 2]);
      await error.waitFor();
      await page.getByLabel('Player', { exact: true }).check();
      await click([1, 2]);
      await valid.waitFor();
      await error.waitFor({ state: 'hidden' });
      if (failed.length > 0) throw new Error(`drawing made failed requests: ${failed.join(', ')}`);
      // The server's dead squares are drawn (the corners of the room, at least).
      await eventually(async () => (await page.locator('.editor-board .dead').count()) > 0, 'dead squares should be shown');
      await page.getByRole('button', { name: 'Solve it' }).click();
      await page.getByText(/^Solved: 3 moves, 2 pushes/).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Check push-optimality' }).click();
      await page.getByText('The solution found (2 pushes) is push-optimal.').waitFor({ timeout: 20_000 });
      await saveScreenshot(page, 'editor.png');
      // The generator continues from the drawing, then the drawing is played.
      await page.getByRole('button', { name: 'Generate from it' }).click();
      await page.getByRole('heading', { name: 'Sokoban generator', level: 1 }).waitFor();
      // One click: the level previewed with its size, the run started, its progress in view.
      await page.getByRole('note').filter({ hasText: /^Continuing from your level \(5×3 inside its walls\)/ }).waitFor();
      await page.getByRole('img', { name: 'Your level, 5 by 3' }).waitFor();
      if (!(await page.getByLabel('Width (interior cells)', { exact: true }).isDisabled())) throw new Error('the level\'s size replaces the width');
      const kept = page.getByRole('list', { name: 'Kept levels' }).getByRole('listitem');
      await eventually(async () => (await kept.count()) > 0, 'a run from the drawn level should keep levels', 15_000);
      await page.getByRole('heading', { name: 'Progress', level: 2 }).evaluate((h) => {
        const top = h.getBoundingClientRect().top;
        if (top < -1 || top > window.innerHeight) throw new Error(`the progress is not in view (top ${top})`);
      });
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /Finished \((done|time_cap|stopped)\)/ }).waitFor({ timeout: 15_000 });
      await page.goBack();
      await page.getByRole('heading', { name: 'Sokoban level editor', level: 1 }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Valid level: 1 box, 7×5.' }).waitFor();
      await page.getByRole('button', { name: 'Play it' }).click();
      await page.getByRole('heading', { name: 'Sokoban', level: 1 }).waitFor();
      await page.getByText('Level: Edited level', { exact: true }).waitFor();
      await page.getByRole('application', { name: 'Board' }).focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      await solvedStatus(page).waitFor();
      await expectCounters(page, '3/2', 'after playing the edited level');
    },
  },
  {
    name: 'on a phone: an edited level is solved, and generating from it shows the run at once',
    limitMs: 60_000,
    async run(page) {
      await page.setViewportSize(WINDOW_SIZES[0]);
      await page.goto(`${options.base}#/editor`);
      await page.getByRole('status').filter({ hasText: 'Valid level: 1 box, 7×5.' }).waitFor();
      await page.getByRole('button', { name: 'Solve it' }).click();
      await page.getByText(/^Solved: 3 moves, 2 pushes/).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Generate from it' }).click();
      await page.getByRole('heading', { name: 'Sokoban generator', level: 1 }).waitFor();
      // The run starts by itself and its progress is on screen, not below the options.
      const progress = page.getByRole('heading', { name: 'Progress', level: 2 });
      await eventually(async () => progress.evaluate((h) => {
        const top = h.getBoundingClientRect().top;
        return top >= 0 && top < window.innerHeight;
      }), 'the progress should be in view on a phone');
      const kept = page.getByRole('list', { name: 'Kept levels' }).getByRole('listitem');
      await eventually(async () => (await kept.count()) > 0, 'the run should keep levels', 15_000);
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /Finished \((done|time_cap|stopped)\)/ }).waitFor({ timeout: 15_000 });
      await expectNoSideScroll(page, 'the generator on a phone');
    },
  },
  {
    name: 'a saved position comes back after a reload; the board zooms and fits',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      await page.getByRole('application', { name: 'Board' }).focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await expectCounters(page, '2/1', 'after a move and a push');
      await page.getByRole('button', { name: 'Save position' }).click();
      await page.getByText('Position saved (2 moves).').waitFor();
      await page.reload();
      await page.getByRole('img', { name: /Sokoban board/ }).waitFor();
      await expectCounters(page, '0/0', 'after the reload');
      await page.getByRole('button', { name: 'Back to saved position' }).click();
      await expectCounters(page, '2/1', 'back at the saved position');
      await page.getByRole('button', { name: 'Undo' }).click();
      await expectCounters(page, '0/0', 'the restore is one step of the undo stack');
      const board = page.getByRole('img', { name: /Sokoban board/ });
      const fitted = (await board.boundingBox()).width;
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await eventually(async () => (await board.boundingBox()).width > fitted * 1.2, 'Zoom in should enlarge the board');
      await page.getByRole('button', { name: 'Fit to window' }).click();
      await eventually(async () => Math.abs((await board.boundingBox()).width - fitted) < 2, 'Fit should bring the board back');
      await expectFitsBothSizes(page, 'the Sokoban page after zooming');
    },
  },
  {
    name: 'a hint being looked for is stopped from the page and frees its slot',
    limitMs: 30_000,
    async run(page) {
      await openSokoban(page);
      await page.getByLabel('Level set').selectOption('xsokoban');
      await page.getByText('Level: screen.01', { exact: true }).waitFor();
      await page.getByLabel('Level', { exact: true }).selectOption('49');
      await page.getByText('Level: screen.50', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Hint' }).click();
      const running = async () => (await (await apiCall('info')).json()).running_jobs;
      await eventually(async () => (await running()) === 1, 'the hint should take a slot');
      await page.getByRole('button', { name: 'Stop hint' }).click();
      await page.getByText('Hint stopped.').waitFor();
      await eventually(async () => (await running()) === 0, 'the stopped hint should free its slot', 3_000);
    },
  },
  {
    name: 'on a phone a hint spells out its walk and push and plays them; the deadlock shading has a legend',
    limitMs: 30_000,
    async run(page) {
      await page.setViewportSize(WINDOW_SIZES[0]);
      await openSokoban(page);
      const legend = page.getByText(/^Shaded squares are dead/);
      await legend.waitFor();
      await page.getByLabel('Show deadlocks').uncheck();
      await legend.waitFor({ state: 'hidden' });
      await page.getByLabel('Show deadlocks').check();
      await legend.waitFor();
      await page.getByRole('button', { name: 'Hint', exact: true }).click();
      await page.getByText(/^Hint: [lurd]*[LURD] \((walk (left|up|right|down)(, (left|up|right|down))*; )?push (left|up|right|down)\)\.$/)
        .waitFor({ timeout: 15_000 });
      await eventually(async () => (await page.locator('#pushes-count').textContent()).trim() === '1', 'the hint should play its push');
    },
  },
  {
    name: 'undo and redo restore the counters',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      await page.getByRole('application', { name: 'Board' }).focus();
      await page.keyboard.press('ArrowDown');
      await expectCounters(page, '1/0', 'after a move');
      await page.keyboard.press('ArrowRight');
      await expectCounters(page, '2/1', 'after a push');
      await saveScreenshot(page, 'sokoban-play.png');
      await page.keyboard.press('Control+z');
      await expectCounters(page, '1/0', 'after Ctrl+Z');
      await page.getByRole('button', { name: 'Undo' }).click();
      await expectCounters(page, '0/0', 'after the Undo button');
      await page.getByRole('button', { name: 'Redo' }).click();
      await expectCounters(page, '1/0', 'after the Redo button');
      await page.getByRole('application', { name: 'Board' }).focus();
      await page.keyboard.press('Control+y');
      await expectCounters(page, '2/1', 'after Ctrl+Y');
    },
  },
  {
    name: 'a malformed level shows its error line',
    limitMs: 20_000,
    async run(page) {
      await openSokoban(page);
      await page.getByLabel('Paste XSB').fill('#####\n#@$.#\n#x  #\n#####\n');
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      const alert = page.getByRole('alert').filter({ hasText: /line 3/ });
      await alert.waitFor({ timeout: 10_000 });
      const caretLine = await page.getByLabel('Paste XSB').evaluate(
        (area) => area.value.slice(0, area.selectionStart).split('\n').length);
      if (caretLine !== 3) throw new Error(`the caret should be on line 3, is on line ${caretLine}`);
    },
  },
  {
    name: 'Solve replays a solution to Solved!',
    limitMs: 45_000,
    async run(page) {
      await openSokoban(page);
      await page.getByLabel('Speed').selectOption({ label: 'Very fast (33 moves/s)' });
      await page.getByRole('button', { name: 'Solve', exact: true }).click();
      await solvedStatus(page).waitFor({ timeout: 30_000 });
      const scrubber = page.getByLabel('Replay position');
      await eventually(async () => (await scrubber.inputValue()) === (await scrubber.getAttribute('max')),
        'the replay position should be at the end');
      const length = await scrubber.getAttribute('max');
      const moves = (await counters(page)).split('/')[0];
      if (moves !== length) throw new Error(`Moves should be the solution's length ${length}, is ${moves}`);
      await page.getByRole('button', { name: 'Step back' }).click();
      await eventually(async () => (await solvedStatus(page).count()) === 0, 'a step back should leave the solved position');
      await page.getByRole('button', { name: 'Step forward' }).click();
      await solvedStatus(page).waitFor({ timeout: 5_000 });
      await saveScreenshot(page, 'sokoban-replay.png');
    },
  },
  {
    name: 'generates levels with a chart and stops',
    limitMs: 40_000,
    async run(page) {
      await page.goto(`${options.base}#/generate`);
      await page.getByRole('heading', { name: 'Sokoban generator' }).waitFor();
      await page.getByLabel('Time limit (s)').fill('3');
      // A band of optimal pushes: every kept level lies in it, each card says how many.
      await page.getByLabel('Fewest pushes').fill('6');
      await page.getByLabel('Most pushes').fill('12');
      await page.getByRole('button', { name: 'Start' }).click();
      const cards = page.getByRole('list', { name: 'Kept levels' }).getByRole('listitem');
      await cards.first().waitFor({ timeout: 15_000 });
      await cards.first().getByRole('img').waitFor();
      const scoreChart = page.getByRole('img', { name: /^Most optimal pushes over time: \d/ });
      await scoreChart.waitFor({ timeout: 5_000 });
      // Let the chart grow for a while (a better screenshot), then stop before the time limit.
      await eventually(async () => Number(/at ([\d.]+) s/.exec(await scoreChart.getAttribute('aria-label'))?.[1]) >= 1.5,
        'the chart should reach 1.5 s', 8_000).catch(() => {});
      const stop = page.getByRole('button', { name: 'Stop' });
      if (await stop.isEnabled()) await stop.click();
      await page.getByRole('status').filter({ hasText: /Finished \((stopped|done|time_cap)\)/ }).waitFor({ timeout: 10_000 });
      await saveScreenshot(page, 'generate.png');
      const kept = await cards.count();
      for (let i = 0; i < kept; i++) {
        const pushes = Number((await cards.nth(i).locator('dt', { hasText: 'Optimal pushes' }).locator('+ dd').textContent()).trim());
        if (!(pushes >= 6 && pushes <= 12)) throw new Error(`card ${i + 1}: ${pushes} optimal pushes, outside 6–12`);
      }
      const finished = await page.getByRole('status').filter({ hasText: /^Finished/ }).textContent();
      const all = Number(/: (\d+) levels? kept/.exec(finished)?.[1]);
      const histogram = page.getByRole('img', { name: /^Optimal pushes of the kept levels: \d+ levels/ });
      const counted = Number(/: (\d+) levels/.exec(await histogram.getAttribute('aria-label'))[1]);
      if (counted !== all) throw new Error(`the histogram counts ${counted} levels, the run kept ${all} (${finished})`);
      if (kept !== Math.min(all, 48)) throw new Error(`${kept} cards for ${all} kept levels (at most 48 are shown)`);
      await page.getByRole('button', { name: 'Play all as a set' }).click();
      await page.getByRole('heading', { name: 'Sokoban', level: 1 }).waitFor();
      await eventually(async () => (await page.getByRole('list', { name: 'Level browser' }).getByRole('listitem').count()) === Math.min(kept, 24),
        `the level browser should list the ${kept} kept levels`);
      await page.goBack();
      await page.getByRole('heading', { name: 'Sokoban generator' }).waitFor();
      await cards.first().getByRole('button', { name: 'Play' }).click();
      await page.getByRole('heading', { name: 'Sokoban', level: 1 }).waitFor();
      await eventually(async () => (await page.getByLabel('Level set').inputValue()) === 'pasted',
        'Play on a card should open the level on the Sokoban page');
    },
  },
  {
    name: 'SameGame: a click scores the hovered group, undo restores the score',
    limitMs: 25_000,
    async run(page) {
      // The server's groups of standard board 1 (the page's first board) tell where to click.
      const set = await (await apiCall('samegame/sets/standard20')).json();
      const start = await (await apiCall('samegame/play', { board: set.boards[0].text, moves: [] })).json();
      const group = start.groups.reduce((best, g) => (g.points > best.points ? g : best));
      if (group.points <= 0) throw new Error('board 1 should have a group worth points');
      await openSameGame(page);
      const before = await sameGameScore(page);
      const centre = await sameGameCellCentre(page, group.cells[0], start.width, start.height);
      await page.mouse.move(centre.x, centre.y);
      const shown = page.getByLabel('Group', { exact: true });
      await eventually(async () => (await shown.textContent()).includes(`${group.size}`) && /(-?\d+) points/.test(await shown.textContent()),
        'hovering should show the group and its points');
      const points = Number(/(-?\d+) points/.exec(await shown.textContent())[1]);
      if (points !== group.points) throw new Error(`the page says ${points} points, the server ${group.points}`);
      await page.mouse.click(centre.x, centre.y);
      await eventually(async () => (await sameGameScore(page)) === before + points,
        `after the click the score should be ${before + points}, is ${await sameGameScore(page).catch(() => '?')}`);
      await eventually(async () => (await page.getByLabel('Moves', { exact: true }).textContent()).trim() === '1', 'one move played');
      await saveScreenshot(page, 'samegame-play.png');
      await page.getByRole('button', { name: 'Undo' }).click();
      await eventually(async () => (await sameGameScore(page)) === before,
        `undo should restore the score ${before}, is ${await sameGameScore(page).catch(() => '?')}`);
      // The keyboard reaches the board too: Enter removes the group under the cursor.
      await page.getByRole('application', { name: 'Board' }).focus();
      await page.keyboard.press('Control+y');
      await eventually(async () => (await sameGameScore(page)) === before + points, 'Ctrl+Y should redo the move');
    },
  },
  {
    name: 'SameGame on a phone: a tap shows a group and its points, a second tap removes it',
    limitMs: 25_000,
    async run(page) {
      await page.setViewportSize(WINDOW_SIZES[0]);
      const set = await (await apiCall('samegame/sets/standard20')).json();
      const start = await (await apiCall('samegame/play', { board: set.boards[0].text, moves: [] })).json();
      const group = start.groups.reduce((best, g) => (g.points > best.points ? g : best));
      await openSameGame(page);
      const before = await sameGameScore(page);
      const centre = await sameGameCellCentre(page, group.cells[0], start.width, start.height);
      // A finger, as the browser reports it: a touch press, then the click of the tap (with
      // the mouse events a browser makes up, which must not choose the group).
      const tap = () => page.getByRole('application', { name: 'Board' }).evaluate((holder, p) => {
        const at = { clientX: p.x, clientY: p.y, bubbles: true };
        holder.dispatchEvent(new PointerEvent('pointerdown', { ...at, pointerType: 'touch', isPrimary: true }));
        holder.dispatchEvent(new PointerEvent('pointerup', { ...at, pointerType: 'touch', isPrimary: true }));
        holder.dispatchEvent(new MouseEvent('mousemove', at));
        holder.dispatchEvent(new MouseEvent('click', at));
      }, centre);
      await tap();
      const shown = page.getByLabel('Group', { exact: true });
      await eventually(async () => (await shown.textContent()).includes(`${group.points} points`), 'a tap should show the group');
      if ((await sameGameScore(page)) !== before) throw new Error('the first tap should not remove the group');
      await tap();
      await eventually(async () => (await sameGameScore(page)) === before + group.points, 'the second tap should remove the group');
      // The solver's expert knobs wait behind "Advanced" on a phone too.
      const stabilized = page.getByLabel(/^Stabilized NRPA/);
      await page.getByRole('button', { name: 'Solve', exact: true }).waitFor();
      if (await stabilized.isVisible()) throw new Error('an expert knob should wait behind "Advanced"');
      await page.locator('.sg-solve-form summary', { hasText: 'Advanced' }).first().click();
      await stabilized.waitFor({ state: 'visible' });
      await expectNoSideScroll(page, 'SameGame on a phone with the advanced options open');
    },
  },
  {
    name: 'SameGame: a short solve replays its best game to the reported score',
    limitMs: 30_000,
    async run(page) {
      await openSameGame(page);
      await page.getByLabel('Time limit (s)').fill('1.5');
      await page.getByLabel('Speed').selectOption({ label: 'Very fast (30 moves/s)' });
      await page.getByRole('button', { name: 'Solve', exact: true }).click();
      const status = page.getByRole('status').filter({ hasText: /^Best score -?\d+ in \d+ moves/ });
      await status.waitFor({ timeout: 10_000 });
      const reported = Number(/^Best score (-?\d+)/.exec(await status.textContent())[1]);
      await page.getByRole('img', { name: /^Best score over time: -?\d+ points at/ }).waitFor();
      const scrubber = page.getByLabel('Replay position');
      await eventually(async () => Number(await scrubber.getAttribute('max')) > 0
        && (await scrubber.inputValue()) === (await scrubber.getAttribute('max')),
      'the replay should reach its last move', 15_000);
      await page.getByRole('status').filter({ hasText: /^Game over/ }).waitFor({ timeout: 5_000 });
      await eventually(async () => (await sameGameScore(page)) === reported,
        `the replay should end at the reported score ${reported}, shows ${await sameGameScore(page).catch(() => '?')}`);
      await saveScreenshot(page, 'samegame-replay.png');
      await expectFitsBothSizes(page, 'SameGame after a solve');
      await page.getByRole('button', { name: 'Step back' }).click();
      await eventually(async () => (await page.getByLabel('Moves left', { exact: true }).textContent()).trim() !== 'game over',
        'a step back should leave the end of the game');
    },
  },
  {
    name: 'SameGame: the solve form is built from the job schema and sends what was changed',
    limitMs: 30_000,
    async run(page) {
      const schema = await jobSchema('samegame_solve');
      const algos = schemaChoices(schema, schema.properties.algo);
      await openSameGame(page);
      // The algorithm menu holds exactly the schema's choices, its default chosen.
      const algo = page.getByLabel('Algorithm', { exact: true });
      await eventually(async () => (await algo.locator('option').count()) === algos.length, 'the algorithm menu should be filled');
      const offered = await algo.locator('option').evaluateAll((options) => options.map((o) => o.value));
      if (JSON.stringify(offered) !== JSON.stringify(algos)) throw new Error(`the menu offers ${offered}, the schema ${algos}`);
      if ((await algo.inputValue()) !== schema.properties.algo.default) {
        throw new Error(`the schema's default ${schema.properties.algo.default} should be chosen, not ${await algo.inputValue()}`);
      }
      // x-when: the playout policy applies to SP-MCTS (not the default NRPA), the nesting level to NRPA.
      const playout = page.getByLabel('Playout policy', { exact: true });
      const level = page.getByLabel('Nesting level', { exact: true });
      if (!schema.properties.playout['x-when']?.algo?.includes('spmcts')) throw new Error('the schema should say when the playout applies');
      if (await playout.isVisible()) throw new Error('the playout policy should be hidden for NRPA');
      if (!(await level.isVisible())) throw new Error('the nesting level should show for NRPA');
      // x-advanced: NRPA's expert knobs wait behind one "Advanced" disclosure, closed at first.
      if (schema.properties.stabilized['x-advanced'] !== true) throw new Error('the schema should mark stabilized NRPA as advanced');
      const stabilized = page.getByLabel(/^Stabilized NRPA/);
      if (await stabilized.isVisible()) throw new Error('an expert knob should wait behind "Advanced"');
      await page.locator('.sg-solve-form summary', { hasText: 'Advanced' }).first().click();
      await stabilized.waitFor({ state: 'visible' });
      await algo.selectOption('spmcts');
      await playout.waitFor({ state: 'visible' });
      await level.waitFor({ state: 'hidden' });
      // UCTK set means UCB1: the SP-MCTS constants C, D, W step aside.
      const c = page.getByLabel('C (exploration)', { exact: true });
      await c.waitFor({ state: 'visible' });
      await page.getByLabel(/^UCTK/).fill('0.15');
      await c.waitFor({ state: 'hidden' });
      await page.getByLabel(/^UCTK/).fill('');
      await c.waitFor({ state: 'visible' });
      // A solve sends only what was changed, and the result's record shows it.
      await playout.selectOption('random');
      await page.getByLabel('Time limit (s)', { exact: true }).fill('1');
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/jobs') && r.method() === 'POST');
      // The stream's text, passed on to the page whole (the API's answers are no-store, so the
      // browser keeps no copy of the body to read back).
      let streamed = null;
      await page.route('**/api/jobs', async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const response = await route.fetch();
        streamed = await response.text();
        await route.fulfill({ response, body: streamed });
      });
      await page.getByRole('button', { name: 'Solve', exact: true }).click();
      const body = (await posted).postDataJSON();
      const { text, source, ...options } = body;
      const expected = { job: 'samegame_solve', algo: 'spmcts', playout: 'random', time_limit: 1 };
      const canonical = (object) => JSON.stringify(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
      if (!text || canonical(options) !== canonical(expected)) {
        throw new Error(`the request should carry the board and ${JSON.stringify(expected)}, carries ${JSON.stringify(options)}`);
      }
      const events = sseEvents(await eventually(() => streamed, 'the solve stream should end'));
      const record = events.find((e) => e.event === 'result')?.data;
      if (!record) throw new Error(`no result in the stream: ${events.map((e) => e.event).join(', ')}`);
      if (record.algo !== 'spmcts' || record.playout !== 'random') {
        throw new Error(`the record should show spmcts with random playouts, shows ${record.algo} / ${record.playout}`);
      }
      await page.getByRole('status').filter({ hasText: new RegExp(`^Best score ${record.score} in \\d+ moves.*: spmcts,`) }).waitFor();
    },
  },
  {
    name: 'a test-set run of the first 10 Microban levels ends with 10 solved rows',
    limitMs: 45_000,
    async run(page) {
      await openTestSets(page);
      await page.getByLabel('Game', { exact: true }).selectOption('sokoban');
      await page.getByLabel('Bundled set').check();
      await page.getByLabel('Set', { exact: true }).selectOption('microban');
      await page.getByLabel('Solver').selectOption('greedy');
      await page.getByLabel('Time limit per level (s)').fill('5');
      await page.getByLabel('First N items (empty: all)').fill('10');
      await page.getByRole('button', { name: 'Run' }).click();
      await page.getByRole('status').filter({ hasText: 'Finished: 10 items.' }).waitFor({ timeout: 35_000 });
      const rows = resultRows(page);
      if ((await rows.count()) !== 10) throw new Error(`10 rows expected, found ${await rows.count()}`);
      const solved = await rows.evaluateAll((trs) => trs.map((tr) => tr.cells[1].textContent));
      if (!solved.every((cell) => cell === 'yes')) throw new Error(`every row should be solved: ${solved.join(', ')}`);
      const totals = await page.getByLabel('Totals').textContent();
      if (!/Solved\s*10 of 10/.test(totals)) throw new Error(`the totals should say 10 of 10: ${totals}`);
      if (!(await page.getByRole('button', { name: 'Download JSON Lines' }).isEnabled())) throw new Error('Download should be enabled');
      await saveScreenshot(page, 'testsets.png');
    },
  },
  {
    name: 'stopping a test-set run keeps the rows that arrived',
    limitMs: 40_000,
    async run(page) {
      await openTestSets(page);
      await page.getByLabel('Set', { exact: true }).selectOption('microban');
      await page.getByLabel('Time limit per level (s)').fill('5');
      await page.getByLabel('First N items (empty: all)').fill('');
      await page.getByRole('button', { name: 'Run' }).click();
      const rows = resultRows(page);
      await eventually(async () => (await rows.count()) >= 3, 'three rows should arrive', 20_000);
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      const cancelled = page.getByRole('status').filter({ hasText: /^Stopped after \d+ items?; the table keeps them\.$/ });
      await cancelled.waitFor({ timeout: 10_000 });
      const kept = Number(/after (\d+)/.exec(await cancelled.textContent())[1]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const count = await rows.count();
      if (count !== kept || count < 3 || count >= 155) throw new Error(`the table should keep the ${kept} rows that arrived, has ${count}`);
      const totals = await page.getByLabel('Totals').textContent();
      if (!totals.includes(`of ${kept}`)) throw new Error(`the totals should count the ${kept} kept rows: ${totals}`);
      if (!(await page.getByRole('button', { name: 'Run' }).isEnabled())) throw new Error('Run should be enabled again');
    },
  },
  {
    name: 'Bait: arrow keys play ticks, undo restores them',
    limitMs: 25_000,
    async run(page) {
      await page.goto(`${options.base}#/bait`);
      await page.getByRole('heading', { name: 'Bait', level: 1 }).waitFor();
      const board = page.getByRole('application', { name: 'Board' });
      const boardImage = board.getByRole('img', { name: /^Bait board 5 by 6, tick 0,/ });
      await boardImage.waitFor();
      const tick = page.getByLabel('Tick', { exact: true });
      const drawing = () => board.locator('svg').innerHTML();
      const start = await drawing();
      await board.focus();
      await page.keyboard.press('ArrowDown'); // onto floor
      await eventually(async () => (await tick.textContent()) === '1', 'ArrowDown should play tick 1');
      const afterDown = await drawing();
      if (afterDown === start) throw new Error('the board should change after ArrowDown');
      await page.keyboard.press('ArrowLeft'); // into a wall: a tick, nothing moves
      await page.keyboard.press(' '); // wait
      await eventually(async () => (await tick.textContent()) === '3', 'ArrowLeft and Space should play ticks 2 and 3');
      if ((await drawing()) !== afterDown) throw new Error('a move into a wall and a wait should change nothing on the board');
      await page.keyboard.press('ArrowDown'); // pushes the box onto the key
      await eventually(async () => (await tick.textContent()) === '4', 'ArrowDown should play tick 4');
      await board.getByRole('img', { name: /tick 4, score 0, playing/ }).waitFor();
      await page.getByRole('button', { name: 'Undo' }).click();
      await eventually(async () => (await tick.textContent()) === '3', 'Undo should go back to tick 3');
      await board.focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
      await eventually(async () => (await tick.textContent()) === '0', 'three more undos should reach tick 0');
      await eventually(async () => (await drawing()) === start, 'undo should restore the starting board');
      await page.getByRole('button', { name: 'Redo' }).click();
      await eventually(async () => (await tick.textContent()) === '1', 'Redo should play tick 1 again');
    },
  },
  {
    name: 'Bait: the offline A* agent wins level 0 on screen',
    limitMs: 30_000,
    async run(page) {
      await page.goto(`${options.base}#/bait`);
      await page.getByRole('img', { name: /^Bait board 5 by 6/ }).waitFor();
      await page.getByLabel('Agent', { exact: true }).selectOption('astar-offline');
      await page.getByLabel('Speed').selectOption({ label: 'Fast (25 ticks/s)' });
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByRole('status').filter({ hasText: 'astar-offline won: score 5 in 9 ticks' }).waitFor({ timeout: 20_000 });
      await page.getByRole('img', { name: "Agent's board 5 by 6, tick 9, score 5, holding the key, won" }).waitFor();
      const frame = page.getByLabel('Frame', { exact: true });
      if ((await frame.inputValue()) !== '9') throw new Error(`the frame should be 9, is ${await frame.inputValue()}`);
      await page.getByRole('button', { name: 'Step back' }).click();
      await page.getByRole('img', { name: /^Agent's board 5 by 6, tick 8, / }).waitFor();
      await page.getByText(/Tick 8 of 9 received · action [UDLR] · move time [\d.]+ (ms|µs) CPU/).waitFor();
      await page.getByRole('button', { name: 'Step forward' }).click();
      await page.getByRole('img', { name: /tick 9, score 5, holding the key, won$/ }).waitFor();
      await saveScreenshot(page, 'bait.png');
    },
  },
  {
    name: 'Sudoku: a clashing digit is flagged in both cells',
    limitMs: 20_000,
    async run(page) {
      await openSudokuWith(page, SUDOKU_EASY);
      await page.getByRole('gridcell', { name: /^Row 1, column 1: empty/ }).click();
      await page.keyboard.press('3'); // row 1 already has a given 3 in column 3
      const entered = page.getByRole('gridcell', { name: /^Row 1, column 1: 3/ });
      const given = page.getByRole('gridcell', { name: /^Row 1, column 3: 3, given/ });
      await eventually(async () => (await entered.getAttribute('aria-invalid')) === 'true'
        && (await given.getAttribute('aria-invalid')) === 'true', 'both 3s should be marked as clashing');
      await eventually(async () => (await page.getByLabel('Clashes', { exact: true }).textContent()).trim() === '2', 'Clashes should be 2');
      await page.keyboard.press('Backspace');
      await eventually(async () => (await given.getAttribute('aria-invalid')) === null, 'clearing the cell should clear the clash');
      await page.keyboard.press('Control+z');
      await eventually(async () => (await given.getAttribute('aria-invalid')) === 'true', 'Ctrl+Z should bring the clash back');
    },
  },
  {
    name: 'Sudoku: exact solve completes the grid and says unique',
    limitMs: 20_000,
    async run(page) {
      await openSudokuWith(page, SUDOKU_EASY);
      await page.getByLabel('Solver', { exact: true }).selectOption('exact');
      await page.getByRole('button', { name: 'Solve', exact: true }).click();
      await page.getByRole('status').filter({ hasText: /the solution is unique/ }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Solved!' }).waitFor();
      await eventually(async () => (await page.getByLabel('Filled', { exact: true }).textContent()).trim() === '81 / 81', 'every cell should be filled');
      const cells = page.getByRole('gridcell');
      if (await cells.count() !== 81) throw new Error('the grid should have 81 cells');
      if (await page.getByRole('gridcell', { name: /empty|clashes/ }).count() !== 0) throw new Error('no cell should be empty or clash');
    },
  },
  {
    name: 'Sudoku: a hint names a cell with its reason and fills it',
    limitMs: 20_000,
    async run(page) {
      await openSudokuWith(page, SUDOKU_EASY);
      await page.getByRole('button', { name: 'Hint', exact: true }).click();
      const message = page.getByRole('status').filter({ hasText: /^Row (\d), column (\d): .*\((naked|hidden) single\)/ });
      await message.waitFor();
      const [, row, column] = /^Row (\d), column (\d)/.exec(await message.textContent());
      await page.getByRole('button', { name: 'Fill hinted cell' }).click();
      const cell = page.getByRole('gridcell', { name: new RegExp(`^Row ${row}, column ${column}: [1-9]$`) });
      await cell.waitFor();
      await eventually(async () => (await page.getByLabel('Filled', { exact: true }).textContent()).trim() === '33 / 81', 'one more cell should be filled');
    },
  },
  {
    name: 'Experiments: the saved reports open with their plots, without running anything',
    limitMs: 20_000,
    async run(page) {
      await page.goto(`${options.base}#/experiments`);
      await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
      const saved = page.getByRole('group', { name: 'Saved reports' });
      await eventually(async () => (await saved.getByRole('button').count()) === 5, 'the five saved reports should be offered');
      await saved.getByRole('button', { name: 'The Bait report' }).click();
      await page.getByRole('heading', { name: /^The Bait report: search agents/ }).waitFor();
      const plot = page.getByRole('img', { name: /^Bait: games won per agent and level/ });
      await plot.waitFor();
      if (!(await plot.evaluate((img) => img.complete && img.naturalWidth > 0))) throw new Error('the saved plot should load');
      const running = (await (await apiCall('info')).json()).running_jobs;
      if (running !== 0) throw new Error(`opening a saved report should run nothing (${running} running)`);
      await plot.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'experiments-saved.png');
      await expectFitsBothSizes(page, 'the Experiments page with a saved report');
      // On a phone a plot keeps its size (readable labels) and scrolls inside its own box.
      await page.setViewportSize(WINDOW_SIZES[0]);
      const width = await plot.evaluate((img) => img.getBoundingClientRect().width);
      if (width < 700) throw new Error(`on a phone the plot is shrunk to ${width} px`);
    },
  },
  {
    name: 'Experiments: a tiny sokoban-gen run shows its plot and its report table',
    limitMs: 30_000,
    async run(page) {
      await page.goto(`${options.base}#/experiments`);
      await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
      await page.getByLabel('Experiment', { exact: true }).selectOption('sokoban-gen');
      await page.getByLabel('Tables', { exact: true }).fill('3.1');
      await page.getByLabel('Seeds per column').fill('1');
      await page.getByLabel('Time limit (s)', { exact: true }).fill('0.2');
      await page.getByText('puzzle experiment sokoban-gen --tables 3.1 --seeds 1 --time-limit 0.2').waitFor();
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const plot = page.getByRole('img', { name: /^Table 3\.1 — Move-Agent/ });
      await plot.waitFor({ timeout: 20_000 });
      const src = await plot.getAttribute('src');
      if (!src.startsWith('data:image/svg+xml')) throw new Error(`the plot should be an SVG data URL, is ${src.slice(0, 40)}`);
      if (!(await plot.evaluate((img) => img.complete && img.naturalWidth > 0))) throw new Error('the plot image did not load');
      const report = page.getByRole('table', { name: /^Table 3\.1 — / });
      await report.getByRole('rowheader', { name: 'push-based' }).waitFor();
      await report.getByRole('rowheader', { name: 'naive' }).waitFor();
      const rows = await page.getByRole('table', { name: 'Rows' }).locator('tbody tr').count();
      if (rows !== 2) throw new Error(`the live table should have 2 rows (one per column), has ${rows}`);
      await page.getByRole('status').filter({ hasText: /^Finished sokoban-gen \(done\)/ }).waitFor();
      await page.getByRole('link', { name: 'Download sokoban-gen-table-3.1.svg' }).waitFor();
      await page.getByRole('link', { name: 'Download report (Markdown)' }).waitFor();
      await saveScreenshot(page, 'experiments.png');
      await expectFitsBothSizes(page, 'an experiment report');
    },
  },
  {
    name: 'no page scrolls sideways at 390×844 or 1280×800',
    limitMs: 60_000,
    async run(page) {
      const pages = [
        ['sokoban', 'Sokoban'], ['generate', 'Sokoban generator'], ['editor', 'Sokoban level editor'], ['samegame', 'SameGame'],
        ['sudoku', 'Sudoku'], ['bait', 'Bait'], ['testsets', 'Test sets'], ['experiments', 'Experiments'],
      ];
      for (const size of WINDOW_SIZES) {
        await page.setViewportSize(size);
        for (const [route, heading] of pages) {
          await page.goto(`${options.base}#/${route}`);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          // Let the page draw what it fetches (boards, forms, sets).
          await page.waitForLoadState('networkidle');
          await expectNoSideScroll(page, `#/${route} at ${size.width}×${size.height}`);
        }
      }
      // The Sudoku grid fits a phone whole: its last column is inside the window.
      await page.setViewportSize(WINDOW_SIZES[0]);
      await page.goto(`${options.base}#/sudoku`);
      const grid = page.getByRole('grid', { name: 'Sudoku grid' });
      await grid.waitFor();
      const box = await grid.boundingBox();
      if (box.x < 0 || box.x + box.width > WINDOW_SIZES[0].width) {
        throw new Error(`the Sudoku grid spans x ${box.x}..${box.x + box.width}, outside the 390 px window`);
      }
      // On a phone the Sokoban board and its replay's controls fit one screen, and the set's
      // thumbnails start folded below them.
      await page.goto(`${options.base}#/sokoban`);
      const board = page.getByRole('img', { name: /^Sokoban board/ });
      await board.waitFor();
      const replay = page.getByRole('group', { name: 'Replay of the solution' }).getByRole('button', { name: 'Play', exact: true });
      const top = (await board.boundingBox()).y;
      const replayBox = await replay.boundingBox();
      if (replayBox.y + replayBox.height - top > WINDOW_SIZES[0].height) {
        throw new Error(`the replay's Play is ${Math.round(replayBox.y + replayBox.height - top)} px below the board's top, more than a phone's screen`);
      }
      if (await page.getByRole('list', { name: 'Level browser' }).isVisible()) throw new Error('the thumbnails should start folded on a phone');
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Running

function withLimit(promise, limitMs, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} took over ${limitMs / 1000} s`)), limitMs); }),
  ]).finally(() => clearTimeout(timer));
}

async function runScenario(browser, scenario) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: false });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // The server's Content-Security-Policy: anything it refuses is a bug of the page.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
  });
  await page.route('**', (route) => {
    const url = new URL(route.request().url());
    if (url.host === baseUrl.host) return route.continue();
    return route.abort('blockedbyclient');
  });
  try {
    await withLimit(scenario.run(page), scenario.limitMs, scenario.name);
    if (pageErrors.length > 0) throw new Error(`uncaught page error: ${pageErrors[0]}`);
    return null;
  } catch (error) {
    mkdirSync(failureDir, { recursive: true });
    const file = path.join(failureDir, `${scenario.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    return `${error.message.split('\n')[0]} (screenshot ${file})`;
  } finally {
    await context.close().catch(() => {});
  }
}

async function main() {
  const hardStop = setTimeout(() => {
    console.log('FAIL whole run: over the time limit');
    console.log(`0 passed, ${scenarios.length} failed`);
    process.exit(2);
  }, WHOLE_RUN_LIMIT_MS);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--proxy-server=direct://', '--proxy-bypass-list=*', '--disable-background-networking', '--no-first-run'],
  });
  let passed = 0;
  let failed = 0;
  try {
    for (const scenario of scenarios) {
      if (options.only && !options.only.test(scenario.name)) continue;
      const failure = await runScenario(browser, scenario);
      if (failure) { failed++; console.log(`FAIL ${scenario.name}: ${failure}`); }
      else { passed++; console.log(`ok ${scenario.name}`); }
    }
  } finally {
    await browser.close().catch(() => {});
    clearTimeout(hardStop);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error) => {
  console.log(`FAIL setup: ${error.message}`);
  console.log(`0 passed, ${scenarios.length} failed`);
  process.exit(1);
});
