// The Sokoban level editor: draw walls, floor, goals, boxes and the player on a grid; the
// server checks the level as it is drawn (its parser's own messages), solves it, says whether
// the solution is push-optimal, shows its dead squares; then play it, export it, or have the
// generator continue from it. The page keeps
// the grid as characters of XSB (drawing, not rules): everything the level means comes from the
// server.

import { api, streamJob } from '../api.js';
import { navigate } from '../route.js';
import { drawBoard } from '../board/sokoban.js';
import { el, field, downloadText, isTextEntry } from '../ui.js';
import { cellAt } from '../svg.js';

const TOOLS = [
  { id: 'wall', label: 'Wall', key: '#' },
  { id: 'floor', label: 'Floor', key: '-' },
  { id: 'goal', label: 'Goal', key: '.' },
  { id: 'box', label: 'Box', key: '$' },
  { id: 'player', label: 'Player', key: '@' },
  { id: 'outside', label: 'Outside', key: ' ' },
];
const MIN_SIDE = 3;
const MAX_SIDE = 40;
const CHECK_DELAY_MS = 150;
const SOLVE_SECONDS = 10;
const KEY_MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The page's only mutable state; the drawing outlives a visit to another page. */
const state = {
  width: 7,
  height: 5,
  cells: null,           // rows of single characters (XSB: # - . $ * @ + and ' ' outside)
  tool: 'wall',
  cursor: [1, 1],        // the keyboard's cell
  painting: false,       // a drag with the pointer held down
  check: { serial: 0, timer: null, error: null, level: null, play: null },
  showDead: true,
  solve: { running: false, controller: null, message: '', error: null, solution: null, pushes: null },
  optimal: { running: false, controller: null, message: '', error: null },
  root: null,
  ui: null,
};

/** A box of walls around floor. */
function blankCells(width, height) {
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) =>
    (x === 0 || y === 0 || x === width - 1 || y === height - 1 ? '#' : '-')));
}

/** The editor's start: a room with the player, a box and a goal on its middle row (a level,
 * so the page opens without an error). */
function starterCells(width, height) {
  const cells = blankCells(width, height);
  const row = Math.floor(height / 2);
  if (width >= 5 && height >= 3) {
    cells[row][1] = '@';
    cells[row][Math.floor(width / 2)] = '$';
    cells[row][width - 2] = '.';
  }
  return cells;
}

export function mount(main) {
  if (!state.cells) state.cells = starterCells(state.width, state.height);
  state.root = buildPage();
  main.append(state.root);
  document.addEventListener('pointerup', stopPainting);
  render();
  scheduleCheck();
  return () => {
    document.removeEventListener('pointerup', stopPainting);
    state.solve.controller?.abort();
    state.optimal.controller?.abort();
    state.root = null;
    state.ui = null;
  };
}

// ---------------------------------------------------------------------------------------------
// The page

function buildPage() {
  const ui = {};
  state.ui = ui;
  ui.toolInputs = TOOLS.map((tool) => el('input', {
    type: 'radio', name: 'editor-tool', id: `tool-${tool.id}`, value: tool.id, checked: tool.id === state.tool,
    onchange: () => { state.tool = tool.id; },
  }));
  const tools = el('fieldset', { class: 'editor-tools' },
    el('legend', {}, 'Tool'),
    ...TOOLS.map((tool, i) => el('span', { class: 'check' }, ui.toolInputs[i], el('label', { for: `tool-${tool.id}` }, tool.label))));
  ui.widthInput = el('input', { id: 'editor-width', type: 'number', min: MIN_SIDE, max: MAX_SIDE, value: String(state.width) });
  ui.heightInput = el('input', { id: 'editor-height', type: 'number', min: MIN_SIDE, max: MAX_SIDE, value: String(state.height) });
  ui.resizeButton = el('button', { type: 'button', onclick: resize }, 'Resize');
  ui.clearButton = el('button', { type: 'button', onclick: clearGrid }, 'Clear');
  ui.board = el('div', {
    class: 'board-holder editor-board', tabindex: 0, role: 'application', 'aria-label': 'Level being drawn',
    'aria-describedby': 'editor-help',
    onpointerdown: onPointerDown, onpointermove: onPointerMove, onkeydown: onBoardKey,
  });
  ui.checkStatus = el('p', { class: 'note', role: 'status' });
  ui.checkError = el('p', { id: 'editor-error', class: 'error', role: 'alert' });
  ui.deadBox = el('input', {
    id: 'editor-dead', type: 'checkbox', checked: state.showDead,
    onchange: () => { state.showDead = ui.deadBox.checked; render(); },
  });

  const drawSection = el('section', { class: 'panel', 'aria-labelledby': 'editor-draw-heading' },
    el('h2', { id: 'editor-draw-heading' }, 'Draw'),
    tools,
    el('div', { class: 'row' }, field('Width', ui.widthInput), field('Height', ui.heightInput),
      el('div', { class: 'buttons' }, ui.resizeButton, ui.clearButton)),
    ui.board,
    el('p', { id: 'editor-help', class: 'help' },
      'Click or drag to draw with the chosen tool (a goal, box or player click toggles it); '
      + 'or move with the arrow keys and press Space. Keys # - . $ @ and 0 pick the tools.'),
    ui.checkStatus, ui.checkError,
    el('div', { class: 'check' }, ui.deadBox, el('label', { for: 'editor-dead' }, 'Show dead squares')),
  );

  ui.solveButton = el('button', { type: 'button', onclick: solve }, 'Solve it');
  ui.optimalButton = el('button', { type: 'button', onclick: checkOptimal }, 'Check push-optimality');
  ui.stopButton = el('button', { type: 'button', onclick: stopSearches }, 'Stop');
  ui.solveStatus = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.optimalStatus = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.searchError = el('p', { class: 'error', role: 'alert' });
  ui.playButton = el('button', { type: 'button', onclick: playIt }, 'Play it');
  ui.generateButton = el('button', { type: 'button', onclick: generateFromIt }, 'Generate from it');
  ui.downloadButton = el('button', { type: 'button', onclick: downloadIt }, 'Download XSB');
  ui.xsbArea = el('textarea', { id: 'editor-xsb', rows: 8, cols: 24, spellcheck: 'false', class: 'xsb-input' });
  ui.openButton = el('button', { type: 'button', onclick: openText }, 'Edit this XSB');

  const useSection = el('section', { class: 'panel', 'aria-labelledby': 'editor-use-heading' },
    el('h2', { id: 'editor-use-heading' }, 'Solve, play, export'),
    el('div', { class: 'buttons' }, ui.solveButton, ui.optimalButton, ui.stopButton),
    ui.solveStatus, ui.optimalStatus, ui.searchError,
    el('div', { class: 'buttons' }, ui.playButton, ui.generateButton, ui.downloadButton),
    field('XSB', ui.xsbArea),
    el('div', { class: 'buttons' }, ui.openButton),
  );

  return el('div', { class: 'page editor-page' },
    el('h1', {}, 'Sokoban level editor'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-main' }, drawSection),
      el('div', { class: 'column-side' }, useSection)));
}

function render() {
  const ui = state.ui;
  if (!ui) return;
  const drawing = drawingState();
  ui.board.replaceChildren(drawBoard(drawing, {
    showDeadlocks: state.showDead, cellPixels: 44, selected: state.cursor,
    label: `Level being drawn, ${state.width} by ${state.height}`,
  }));
  const check = state.check;
  ui.checkError.textContent = check.error ? check.error.message : '';
  ui.checkStatus.textContent = check.level
    ? `Valid level: ${check.level.boxes} box${check.level.boxes === 1 ? '' : 'es'}, ${check.level.width}×${check.level.height}.`
    : '';
  const valid = Boolean(check.level);
  const searching = state.solve.running || state.optimal.running;
  ui.solveButton.disabled = !valid || searching;
  ui.optimalButton.disabled = !valid || searching;
  ui.stopButton.disabled = !searching;
  ui.playButton.disabled = !valid;
  ui.generateButton.disabled = !valid;
  ui.downloadButton.disabled = !valid;
  ui.solveStatus.textContent = state.solve.message;
  ui.optimalStatus.textContent = state.optimal.message;
  ui.searchError.textContent = (state.solve.error ?? state.optimal.error)?.message ?? '';
  if (document.activeElement !== ui.xsbArea) ui.xsbArea.value = gridXsb();
  for (const input of ui.toolInputs) input.checked = input.value === state.tool;
}

/**
 * What drawBoard needs, read off the characters (drawing only); dead squares come from the
 * server's answer for the level as last checked.
 */
function drawingState() {
  const drawing = { width: state.width, height: state.height, walls: [], goals: [], boxes: [], floor: [], player: null };
  state.cells.forEach((row, y) => row.forEach((ch, x) => {
    const cell = [x, y];
    if (ch === '#') drawing.walls.push(cell);
    else if (ch !== ' ') drawing.floor.push(cell);
    if ('.*+'.includes(ch)) drawing.goals.push(cell);
    if ('$*'.includes(ch)) drawing.boxes.push(cell);
    if ('@+'.includes(ch)) drawing.player = cell;
  }));
  const play = state.check.play;
  if (play && play.width === state.width && play.height === state.height) drawing.dead_squares = play.dead_squares;
  return drawing;
}

/** The grid as XSB text: one row a line, outside cells as spaces, trailing spaces dropped. */
function gridXsb() {
  return state.cells.map((row) => row.join('').replace(/\s+$/, '')).join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Drawing

/** The character a cell becomes when `tool` is applied to `ch`. */
function paintedChar(ch, tool) {
  const goal = '.*+'.includes(ch);
  const box = '$*'.includes(ch);
  const player = '@+'.includes(ch);
  switch (tool) {
    case 'wall': return '#';
    case 'floor': return '-';
    case 'outside': return ' ';
    case 'goal': return (box ? (goal ? '$' : '*') : player ? (goal ? '@' : '+') : (goal ? '-' : '.'));
    case 'box': return box ? (goal ? '.' : '-') : (goal ? '*' : '$');
    case 'player': return goal ? '+' : '@';
    default: return ch;
  }
}

function paint([x, y], { toggle = true } = {}) {
  const tool = state.tool;
  // A drag paints walls, floor or outside; the toggling tools act on the clicked cell only.
  if (!toggle && ['goal', 'box', 'player'].includes(tool)) return;
  const before = gridXsb();
  if (tool === 'player') {
    // One player: taken off where it stood.
    for (const row of state.cells) {
      row.forEach((c, i) => { if (c === '@') row[i] = '-'; else if (c === '+') row[i] = '.'; });
    }
  }
  state.cells[y][x] = paintedChar(state.cells[y][x], tool);
  if (gridXsb() !== before) changed();
}

function changed() {
  state.solve.message = '';
  state.solve.error = null;
  state.solve.solution = null;
  state.optimal.message = '';
  state.optimal.error = null;
  render();
  scheduleCheck();
}

function onPointerDown(event) {
  const cell = cellUnder(event);
  if (!cell) return;
  event.preventDefault();
  state.ui.board.focus();
  state.cursor = cell;
  state.painting = true;
  state.lastPainted = cell.join(',');
  paint(cell);
  render();
}

function onPointerMove(event) {
  if (!state.painting || event.buttons === 0) return;
  const cell = cellUnder(event);
  if (!cell || cell.join(',') === state.lastPainted) return;
  state.lastPainted = cell.join(',');
  state.cursor = cell;
  paint(cell, { toggle: false });
  render();
}

function stopPainting() {
  state.painting = false;
}

function cellUnder(event) {
  const svg = state.ui?.board.querySelector('svg');
  return svg ? cellAt(svg, event.clientX, event.clientY) : null;
}

function onBoardKey(event) {
  if (isTextEntry(event.target) || event.ctrlKey || event.altKey || event.metaKey) return;
  const move = KEY_MOVES[event.key];
  if (move) {
    event.preventDefault();
    const [x, y] = state.cursor;
    state.cursor = [Math.min(state.width - 1, Math.max(0, x + move[0])), Math.min(state.height - 1, Math.max(0, y + move[1]))];
    render();
    return;
  }
  if (event.key === ' ' || event.key === 'Enter') {
    event.preventDefault();
    paint(state.cursor);
    render();
    return;
  }
  const tool = TOOLS.find((t) => t.key === event.key || (event.key === '0' && t.id === 'outside'));
  if (tool && event.key !== ' ') {
    event.preventDefault();
    state.tool = tool.id;
    render();
  }
}

function resize() {
  const side = (input) => Math.min(MAX_SIDE, Math.max(MIN_SIDE, Math.round(Number(input.value) || MIN_SIDE)));
  const width = side(state.ui.widthInput);
  const height = side(state.ui.heightInput);
  state.ui.widthInput.value = String(width);
  state.ui.heightInput.value = String(height);
  // Keep what fits; new cells are outside.
  state.cells = Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => state.cells[y]?.[x] ?? ' '));
  state.width = width;
  state.height = height;
  state.cursor = [Math.min(state.cursor[0], width - 1), Math.min(state.cursor[1], height - 1)];
  changed();
}

function clearGrid() {
  state.cells = blankCells(state.width, state.height);
  changed();
}

/** Takes the XSB box's text into the grid, once the server has read it as one level. */
async function openText() {
  try {
    const { levels } = await api('sokoban/parse', { xsb: state.ui.xsbArea.value });
    const rows = levels[0].xsb.replace(/\n+$/, '').split('\n');
    state.height = Math.min(MAX_SIDE, rows.length);
    state.width = Math.min(MAX_SIDE, Math.max(...rows.map((row) => row.length)));
    state.cells = Array.from({ length: state.height }, (_, y) => Array.from({ length: state.width }, (_, x) => {
      const ch = rows[y]?.[x] ?? ' ';
      return ch === '_' ? '-' : ch;
    }));
    state.ui.widthInput.value = String(state.width);
    state.ui.heightInput.value = String(state.height);
    state.ui.xsbArea.blur();
    changed();
  } catch (error) {
    state.check.error = error;
    render();
  }
}

// ---------------------------------------------------------------------------------------------
// The server's checks

function scheduleCheck() {
  clearTimeout(state.check.timer);
  state.check.timer = setTimeout(checkLevel, CHECK_DELAY_MS);
}

/** Asks the server whether the drawing is a level (its parser's message if not; a check that
 * answers either way, so drawing makes no failed request), then for its dead squares. */
async function checkLevel() {
  const serial = ++state.check.serial;
  const xsb = gridXsb();
  try {
    const check = await api('games/sokoban/check', { text: xsb });
    if (serial !== state.check.serial) return;
    if (!check.valid) throw new Error(check.error);
    if (check.items !== 1) throw new Error(`the drawing reads as ${check.items} levels: join them with walls`);
    const { levels } = await api('sokoban/parse', { xsb });
    if (serial !== state.check.serial) return;
    const play = await api('sokoban/play', { xsb, moves: '', action: null });
    if (serial !== state.check.serial) return;
    state.check.error = null;
    state.check.level = levels[0];
    state.check.play = play.state;
  } catch (error) {
    if (serial !== state.check.serial) return;
    state.check.error = error;
    state.check.level = null;
    state.check.play = null;
  }
  render();
}

// ---------------------------------------------------------------------------------------------
// Solving

/** Runs `sokoban_solve` on the drawing with `settings`; resolves with its result record. */
async function runSolve(run, settings) {
  const controller = new AbortController();
  Object.assign(run, { running: true, controller, error: null });
  render();
  let result = null;
  try {
    await streamJob({ job: 'sokoban_solve', xsb: gridXsb(), level: 1, time_limit: SOLVE_SECONDS, ...settings }, (name, data) => {
      if (name === 'result') result = data;
      else if (name === 'error') run.error = new Error(data.error ?? String(data));
      else if (name === 'progress' && data.expanded !== undefined) {
        run.message = `Searching… ${data.elapsed_s.toFixed(1)} s of ${data.time_limit_s} s, ${data.expanded.toLocaleString()} positions expanded`;
        render();
      }
    }, controller.signal);
  } catch (error) {
    run.error = error;
  } finally {
    run.running = false;
    run.controller = null;
  }
  return result;
}

async function solve() {
  const run = state.solve;
  run.message = 'Solving…';
  const result = await runSolve(run, {});
  if (result?.solved) {
    run.solution = result.solution;
    run.pushes = result.pushes;
    run.message = `Solved: ${result.moves} moves, ${result.pushes} pushes (${Number(result.time_s).toFixed(2)} s).`;
  } else if (result) {
    run.message = `Not solved (${result.stop}).`;
  } else if (!run.error) {
    run.message = 'Stopped.';
  }
  render();
}

/** Solves push-optimally (A* over pushes) and compares with the solution found by Solve, if any. */
async function checkOptimal() {
  const run = state.optimal;
  run.message = 'Looking for a push-optimal solution…';
  const result = await runSolve(run, { algo: 'astar' });
  const found = state.solve.solution ? state.solve.pushes : null;
  if (result?.solved) {
    const optimum = result.pushes;
    if (found === null) run.message = `Push-optimal: ${optimum} pushes (${result.moves} moves).`;
    else if (found === optimum) run.message = `The solution found (${found} pushes) is push-optimal.`;
    else run.message = `The solution found (${found} pushes) is not push-optimal: the optimum is ${optimum} pushes.`;
  } else if (result) {
    run.message = result.stop === 'exhausted'
      ? 'No solution: the level cannot be solved.'
      : `No push-optimal solution found in ${SOLVE_SECONDS} s (${result.stop}).`;
  } else if (!run.error) {
    run.message = 'Stopped.';
  }
  render();
}

function stopSearches() {
  state.solve.controller?.abort();
  state.optimal.controller?.abort();
}

// ---------------------------------------------------------------------------------------------
// Play and export

function playIt() {
  if (!state.check.level) return;
  navigate('sokoban', { xsb: state.check.level.xsb, title: 'Edited level' });
}

/** Opens the generator continuing from the drawing (its floor, boxes on its goals). */
function generateFromIt() {
  if (!state.check.level) return;
  // One click: the generator previews the level and starts from it at once.
  navigate('generate', { seed_level: state.check.level.xsb, start: '1' });
}

function downloadIt() {
  if (!state.check.level) return;
  downloadText('sokoban-edited-level.xsb', `; Edited level\n${state.check.level.xsb}\n`);
}
