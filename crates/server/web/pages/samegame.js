// The SameGame page: choose a standard board, make a random one or paste one; play it (hover
// shows a group and its points, click removes it, undo/redo); solve it with SP-MCTS, NMCS or
// NRPA as a job with a live best-score chart, and replay the best game move by move. Every
// state drawn (groups, points, the end of the game) comes from the server
// (`/api/samegame/play`); the page keeps only view state in `state`.

import { api, streamJob } from '../api.js';
import { drawBoard, COLOUR_NAMES } from '../board/samegame.js';
import { buildForm, jobInfo } from '../forms.js';
import { el, field, moveCaretTo } from '../ui.js';
import { svgNode, svgText, niceCeiling, cellAt } from '../svg.js';
import { createReplay } from '../replay.js';

const PASTED_SET = 'pasted';
const RANDOM_SET = 'random';
const REPLAY_SPEEDS = [
  { label: 'Slow (2 moves/s)', ms: 500 },
  { label: 'Normal (4 moves/s)', ms: 250 },
  { label: 'Fast (10 moves/s)', ms: 100 },
  { label: 'Very fast (30 moves/s)', ms: 33 },
];
/** The `samegame_solve` fields this page fills itself (the board) or shows beside the boards. */
const PAGE_FIELDS = ['text', 'source', 'board', 'random', 'scoring', 'penalty'];

/** The page's only mutable state; it outlives a visit to another page. */
const state = {
  sets: [],              // [{id, name, boards}]
  setId: 'standard20',
  boards: [],            // board records of the chosen set ({index, name, text, width, height, colours})
  boardPosition: 0,
  board: null,           // {name, text} being played
  boardError: null,      // Error (with line/column for a malformed paste)
  random: { width: '15', height: '15', colours: '5', seed: '1' },
  scoring: null,          // the scoring and end penalty of play (the schema's defaults until the form says)
  penalty: null,
  history: [],           // undo stack: [{moves: [[col, row], …], state}] as the server gave them
  cursor: 0,             // history[cursor] is on screen (unless a replay is)
  pointer: null,         // [col, row] under the mouse or the keyboard cursor
  pointerType: 'mouse',  // of the last press on the board: a touch has no hover
  keyCursor: null,       // [col, row] of the keyboard cursor (drawn while the board has focus)
  actionQueue: Promise.resolve(),
  playMessage: '',
  solveJob: null,        // {name, title, schema} of `samegame_solve` (GET /api/jobs)
  solveValues: {},       // the solve form's values, kept for the next visit
  solve: { running: false, controller: null, samples: [], latest: null, message: '', error: null, result: null, board: null, scoring: null },
  replay: null,          // {moves, score, board, scoring, frames, shown, shownPosition}
  playback: createReplay({   // position, playing, timer and speed of the replay
    showFrame, frameCount: () => (state.replay ? state.replay.moves.length + 1 : 0), onChange: () => render(),
    speedMs: REPLAY_SPEEDS[2].ms,
  }),
  root: null,
  ui: null,
};

// ---------------------------------------------------------------------------------------------
// Mounting and the static skeleton

export function mount(main) {
  state.root = buildPage();
  main.append(state.root);
  startPage();
  render();
  return () => {
    state.playback.pause();
    state.root = null;
    state.ui = null;
  };
}

async function startPage() {
  try {
    if (state.sets.length === 0 || !state.solveJob) {
      const [sets, job] = await Promise.all([api('samegame/sets'), jobInfo('samegame_solve')]);
      state.sets = sets;
      state.solveJob = job;
      renderSetOptions();
    }
    buildForms();
    if (!state.board) await chooseSet(state.setId);
  } catch (error) {
    state.boardError = error;
  }
  render();
}

/**
 * The scoring and solve settings, built from `samegame_solve`'s schema: its scoring and end
 * penalty beside the boards (they score play too), every other option in the solve form.
 */
function buildForms() {
  const ui = state.ui;
  if (!ui || !state.solveJob || ui.solveForm) return;
  ui.scoringForm = buildForm(state.solveJob, {
    idPrefix: 'sg-', only: ['scoring', 'penalty'],
    values: { scoring: state.scoring ?? undefined, penalty: state.penalty ?? undefined },
    onChange: (form) => {
      const [scoring, penalty] = [form.value('scoring'), form.value('penalty')];
      if (scoring !== state.scoring || penalty !== state.penalty) changeScoring(scoring, penalty);
    },
  });
  state.scoring ??= ui.scoringForm.value('scoring');
  state.penalty ??= ui.scoringForm.value('penalty');
  ui.solveForm = buildForm(state.solveJob, {
    idPrefix: 'sg-', exclude: PAGE_FIELDS, values: state.solveValues,
    onChange: (form) => {
      try { state.solveValues = form.values(); } catch { /* shown when the solve starts */ }
    },
  });
  ui.scoringHolder.replaceChildren(ui.scoringForm.element);
  ui.solveFields.replaceChildren(ui.solveForm.element);
}

function buildPage() {
  const ui = {};
  state.ui = ui;

  // Boards
  ui.setSelect = el('select', { id: 'sg-set', onchange: () => chooseSet(ui.setSelect.value) });
  ui.boardSelect = el('select', { id: 'sg-board', onchange: () => chooseBoard(Number(ui.boardSelect.value)) });
  ui.boardTitle = el('p', { class: 'level-title' });
  ui.randomInputs = {};
  const randomField = (name, label, min, max) => {
    const input = el('input', {
      id: `sg-random-${name}`, type: 'number', min, max, step: 1, value: state.random[name],
      oninput: () => { state.random[name] = input.value; },
    });
    ui.randomInputs[name] = input;
    return field(label, input);
  };
  ui.randomButton = el('button', { type: 'button', onclick: newRandomBoard }, 'New random board');
  ui.pasteArea = el('textarea', {
    id: 'sg-paste', rows: 6, cols: 20, spellcheck: 'false', class: 'xsb-input', 'aria-describedby': 'sg-paste-error sg-paste-help',
  });
  ui.loadButton = el('button', { type: 'button', onclick: () => loadPasted(ui.pasteArea.value) }, 'Load');
  ui.fileInput = el('input', { id: 'sg-file', type: 'file', accept: '.txt,.csv,text/plain', onchange: onFileChosen });
  ui.boardError = el('p', { id: 'sg-paste-error', class: 'error', role: 'alert' });
  ui.scoringHolder = el('div', { class: 'sg-scoring' }, el('p', { class: 'note' }, 'Loading the settings…'));

  const boardsSection = el('section', { class: 'panel', 'aria-labelledby': 'sg-boards-heading' },
    el('h2', { id: 'sg-boards-heading' }, 'Boards'),
    field('Board set', ui.setSelect),
    field('Board', ui.boardSelect),
    ui.boardTitle,
    el('fieldset', {},
      el('legend', {}, 'Random board'),
      el('div', { class: 'row sg-random' },
        randomField('width', 'Columns', 1, 128), randomField('height', 'Rows', 1, 128),
        randomField('colours', 'Colours', 1, 20), randomField('seed', 'Seed', 0)),
      el('div', { class: 'buttons' }, ui.randomButton)),
    el('fieldset', {},
      el('legend', {}, 'Your own board'),
      field('Paste a board', ui.pasteArea),
      el('p', { id: 'sg-paste-help', class: 'help' },
        'Any supported format: "rows cols colours" then letter rows (RGBYV…), "# problem NN" digit blocks, or the Hungarian CSV "columns;rows".'),
      ui.boardError,
      field('Open a board file', ui.fileInput),
      el('div', { class: 'buttons' }, ui.loadButton)),
    ui.scoringHolder,
  );

  // Play
  ui.boardHolder = el('div', {
    class: 'board-holder', tabindex: 0, role: 'application', 'aria-label': 'Board',
    'aria-describedby': 'sg-board-help', onclick: onBoardClick,
    // Hover by pointer events of a mouse or pen only: the mouse events a browser makes up
    // after a tap would otherwise choose the group before the tap's click.
    onpointermove: (event) => { if (event.pointerType !== 'touch') onBoardHover(event); },
    onpointerdown: (event) => { state.pointerType = event.pointerType; },
    onpointerleave: (event) => { if (event.pointerType !== 'touch') setPointer(null); }, onkeydown: onBoardKey, onfocus: () => render(), onblur: () => render(),
  });
  ui.scoreOutput = el('output', { id: 'sg-score' }, '0');
  ui.movesLeftOutput = el('output', { id: 'sg-moves-left' }, '');
  ui.groupOutput = el('output', { id: 'sg-group', 'aria-live': 'polite' }, '—');
  ui.movesOutput = el('output', { id: 'sg-moves' }, '0');
  ui.overStatus = el('p', { class: 'solved sg-over', role: 'status' });
  ui.playMessage = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.undoButton = el('button', { type: 'button', onclick: () => queueAction(undo), 'aria-keyshortcuts': 'Control+Z' }, 'Undo');
  ui.redoButton = el('button', { type: 'button', onclick: () => queueAction(redo), 'aria-keyshortcuts': 'Control+Y' }, 'Redo');
  ui.restartButton = el('button', { type: 'button', onclick: () => queueAction(restart) }, 'Restart');
  const counter = (label, output) => el('span', { class: 'counter' }, el('label', { for: output.id }, label), ' ', output);

  const playSection = el('section', { class: 'panel play', 'aria-labelledby': 'sg-play-heading' },
    el('h2', { id: 'sg-play-heading' }, 'Play'),
    el('div', { class: 'counters' },
      counter('Score', ui.scoreOutput), counter('Moves left', ui.movesLeftOutput), counter('Moves', ui.movesOutput)),
    el('div', { class: 'counters sg-group-line' }, counter('Group', ui.groupOutput)),
    ui.boardHolder,
    el('p', { id: 'sg-board-help', class: 'help' },
      'Point at a group to see its points; click removes it (on a touch screen: tap a group to see its points, tap it again to remove it). Keys: arrows move the cursor, Enter or Space removes the group under it, Ctrl+Z undoes, Ctrl+Y redoes.'),
    ui.overStatus,
    el('div', { class: 'buttons' }, ui.undoButton, ui.redoButton, ui.restartButton),
    ui.playMessage,
  );

  // Solve
  // The settings arrive with the job's schema (buildForms).
  ui.solveFields = el('div', { class: 'sg-solve-fields' }, el('p', { class: 'note' }, 'Loading the settings…'));
  ui.solveButton = el('button', { type: 'submit' }, 'Solve');
  ui.stopButton = el('button', { type: 'button', onclick: stopSolve }, 'Stop');
  ui.solveStatus = el('p', { class: 'note', role: 'status' });
  ui.solveError = el('p', { class: 'error', role: 'alert' });
  ui.chart = el('figure', { class: 'chart' });
  ui.replayPlay = el('button', { type: 'button', onclick: () => state.playback.toggle() }, 'Play');
  ui.replayBack = el('button', { type: 'button', onclick: () => state.playback.step(-1) }, 'Step back');
  ui.replayForward = el('button', { type: 'button', onclick: () => state.playback.step(1) }, 'Step forward');
  ui.replayClose = el('button', { type: 'button', onclick: () => { closeReplay(); render(); } }, 'Back to my game');
  ui.speedSelect = el('select', { id: 'sg-replay-speed', onchange: () => { state.playback.speedMs = Number(ui.speedSelect.value); } },
    REPLAY_SPEEDS.map((speed) => el('option', { value: String(speed.ms), selected: speed.ms === state.playback.speedMs }, speed.label)));
  ui.scrubber = el('input', {
    id: 'sg-replay-position', type: 'range', min: 0, max: 0, step: 1, value: '0',
    oninput: () => state.playback.scrubTo(Number(ui.scrubber.value)),
  });
  ui.replayPosition = el('p', { class: 'note' });

  const solveForm = el('form', {
    class: 'sg-solve-form', 'aria-labelledby': 'sg-solve-heading',
    onsubmit: (event) => { event.preventDefault(); startSolve(); },
  },
  el('h2', { id: 'sg-solve-heading' }, 'Solve'),
  el('p', { class: 'help' }, 'Empty fields keep their defaults, the strongest settings.'),
  ui.solveFields,
  el('div', { class: 'buttons' }, ui.solveButton, ui.stopButton));

  const solveSection = el('section', { class: 'panel solve' },
    solveForm, ui.solveStatus, ui.solveError);
  const progressSection = el('section', { class: 'panel', 'aria-labelledby': 'sg-best-heading' },
    el('h2', { id: 'sg-best-heading' }, 'Best game'),
    ui.chart,
    el('fieldset', { class: 'replay' },
      el('legend', {}, 'Replay of the best game'),
      el('div', { class: 'buttons' }, ui.replayBack, ui.replayPlay, ui.replayForward, ui.replayClose),
      el('div', { class: 'row' }, field('Speed', ui.speedSelect), field('Replay position', ui.scrubber)),
      ui.replayPosition));

  renderSetOptions();
  return el('div', { class: 'page samegame-page' },
    el('h1', {}, 'SameGame'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-main' }, playSection, progressSection),
      el('div', { class: 'column-side' }, boardsSection, solveSection)));
}

// ---------------------------------------------------------------------------------------------
// Rendering: the skeleton stays, render() updates it from `state`

function render() {
  const ui = state.ui;
  if (!ui) return;
  const shown = shownState();
  const replay = state.replay;

  const highlight = highlightedGroup(shown);
  const focused = document.activeElement === ui.boardHolder;
  const cursor = focused && !replay ? state.keyCursor : null;
  const drawKey = [shown, highlight?.group, cursor?.join(',')];
  if (!ui.drawn || ui.drawn.some((part, i) => part !== drawKey[i])) {
    ui.drawn = drawKey;
    ui.boardHolder.replaceChildren(shown
      ? drawBoard(shown, {
        highlight: highlight?.group.cells ?? [], highlightKind: highlight?.kind ?? 'hover', cursor,
        cellPixels: boardCellPixels(shown),
      })
      : el('p', { class: 'note' }, state.boardError ? 'No board loaded.' : 'Loading…'));
  }

  ui.scoreOutput.value = shown ? String(shown.over ? shown.final_score : shown.points) : '0';
  ui.movesLeftOutput.value = shown ? (shown.over ? 'game over' : String(shown.moves_left)) : '';
  ui.movesOutput.value = String(shown?.moves ?? 0);
  const hovered = highlight?.kind === 'hover' || highlight?.kind === 'next' ? highlight.group : null;
  ui.groupOutput.value = hovered
    ? `${hovered.size} ${colourName(hovered.colour)} stones, ${hovered.points} ${hovered.points === 1 ? 'point' : 'points'}`
    : '—';
  ui.overStatus.textContent = shown?.over ? gameOverText(shown) : '';
  ui.playMessage.textContent = state.playMessage;

  ui.boardTitle.textContent = state.board ? `Board: ${state.board.name}` : '';
  ui.boardError.textContent = state.boardError ? state.boardError.message : '';
  ui.pasteArea.toggleAttribute('aria-invalid', Boolean(state.boardError?.line));
  if (ui.setSelect.value !== state.setId) ui.setSelect.value = state.setId;
  renderBoardOptions();

  ui.undoButton.disabled = !replay && state.cursor === 0;
  ui.redoButton.disabled = Boolean(replay) || state.cursor >= state.history.length - 1;
  ui.restartButton.disabled = !state.board;

  const solve = state.solve;
  ui.solveButton.disabled = solve.running || !state.board || !ui.solveForm;
  ui.stopButton.disabled = !solve.running;
  ui.solveStatus.textContent = solveStatusText();
  ui.solveError.textContent = solve.error ? solve.error.message : '';
  ui.chart.replaceChildren(...bestScoreChart());

  const length = replay ? replay.moves.length : 0;
  const position = replay ? state.playback.position : 0;
  for (const control of [ui.replayPlay, ui.replayBack, ui.replayForward, ui.scrubber, ui.replayClose]) control.disabled = !replay;
  ui.replayPlay.textContent = replay && state.playback.playing ? 'Pause' : 'Play';
  ui.scrubber.max = String(length);
  ui.scrubber.value = String(position);
  ui.scrubber.setAttribute('aria-valuetext', replay ? `move ${position} of ${length}` : 'no best game yet');
  ui.replayPosition.textContent = replay
    ? `Move ${position} of ${length}${position < length ? ': the outlined group goes next.' : '.'}`
    : 'Solve the board to replay its best game.';
}

/** A cell size that keeps big boards on screen. */
function boardCellPixels(shown) {
  return Math.max(12, Math.min(40, Math.floor(600 / Math.max(shown.width, shown.height))));
}

function colourName(colour) {
  return COLOUR_NAMES[colour - 1] ?? `colour ${colour}`;
}

function gameOverText(shown) {
  const adjustment = shown.end_adjustment ?? 0;
  let ending;
  if (shown.cleared) {
    ending = adjustment > 0 ? `board cleared, bonus +${adjustment}` : 'board cleared (no bonus in this scoring)';
  } else {
    const left = `${shown.stones} stone${shown.stones === 1 ? '' : 's'} left`;
    ending = adjustment < 0 ? `${left}, penalty ${adjustment} (${shown.penalty})` : `${left}, no penalty`;
  }
  return `Game over: ${ending}. Final score ${shown.final_score}.`;
}

function renderSetOptions() {
  const ui = state.ui;
  if (!ui) return;
  const options = state.sets.map((set) => el('option', { value: set.id }, `${set.name} (${set.boards})`));
  if (state.setId === PASTED_SET) options.push(el('option', { value: PASTED_SET }, 'Pasted boards'));
  if (state.setId === RANDOM_SET) options.push(el('option', { value: RANDOM_SET }, 'Random board'));
  ui.setSelect.replaceChildren(...options);
  ui.setSelect.value = state.setId;
}

function renderBoardOptions() {
  const ui = state.ui;
  const signature = `${state.setId}:${state.boards.length}:${state.boards[0]?.name ?? ''}`;
  if (ui.boardSelect.dataset.signature !== signature) {
    ui.boardSelect.dataset.signature = signature;
    ui.boardSelect.replaceChildren(...state.boards.map((board, position) => el('option', { value: String(position) },
      `${board.index}. ${board.name} (${board.width}×${board.height}, ${board.colours} colours)`)));
  }
  ui.boardSelect.value = String(state.boardPosition);
}

/** The state on screen: the replay's frame while a replay is open, else the play position. */
function shownState() {
  if (state.replay?.shown) return state.replay.shown;
  return state.history[state.cursor]?.state ?? null;
}

function currentMoves() {
  return state.history[state.cursor]?.moves ?? [];
}

/** The server's group holding `cell` in `shown`, found in the list the server sent. */
function groupAt(shown, cell) {
  if (!shown || !cell) return null;
  if (!shown.groupByCell) {
    const index = new Map();
    for (const group of shown.groups) for (const [col, row] of group.cells) index.set(`${col},${row}`, group);
    Object.defineProperty(shown, 'groupByCell', { value: index, enumerable: false });
  }
  return shown.groupByCell.get(`${cell[0]},${cell[1]}`) ?? null;
}

/** In a replay the group the next move removes; else the group under the pointer. */
function highlightedGroup(shown) {
  const replay = state.replay;
  if (replay) {
    if (!replay.shown || replay.shownPosition >= replay.moves.length) return null;
    const group = groupAt(shown, replay.moves[replay.shownPosition]);
    return group ? { group, kind: 'next' } : null;
  }
  const group = groupAt(shown, state.pointer);
  return group ? { group, kind: 'hover' } : null;
}

function solveStatusText() {
  const solve = state.solve;
  if (solve.running) {
    const latest = solve.latest;
    if (!latest) return 'Starting the search…';
    const best = latest.best_score ?? '—';
    const iterations = latest.iterations ? `, ${Number(latest.iterations).toLocaleString()} iterations` : '';
    return `Searching… ${Number(latest.elapsed_s).toFixed(1)} s, best score so far ${best}${iterations}`;
  }
  return solve.message;
}

// ---------------------------------------------------------------------------------------------
// Boards

async function chooseSet(setId) {
  if (setId === PASTED_SET || setId === RANDOM_SET) return;
  try {
    const set = await api(`samegame/sets/${encodeURIComponent(setId)}`);
    state.setId = setId;
    state.boards = set.boards;
    state.boardError = null;
    renderSetOptions();
    await chooseBoard(0);
  } catch (error) {
    state.boardError = error;
    render();
  }
}

async function chooseBoard(position) {
  const board = state.boards[position];
  if (!board) return;
  state.boardPosition = position;
  await openBoard({ name: board.name, text: board.text });
}

async function newRandomBoard() {
  const { width, height, colours, seed } = state.random;
  try {
    const { board } = await api('samegame/random', {
      width: Number(width), height: Number(height), colours: Number(colours), seed: Number(seed || 1),
    });
    state.boardError = null;
    state.setId = RANDOM_SET;
    state.boards = [board];
    state.boardPosition = 0;
    renderSetOptions();
    await openBoard({ name: board.name, text: board.text });
  } catch (error) {
    state.boardError = error;
    render();
  }
}

async function loadPasted(text) {
  try {
    const { boards } = await api('samegame/parse', { text });
    state.boardError = null;
    state.setId = PASTED_SET;
    state.boards = boards;
    state.boardPosition = 0;
    renderSetOptions();
    await openBoard({ name: boards[0].name, text: boards[0].text });
  } catch (error) {
    state.boardError = error;
    render();
    if (error.line) moveCaretTo(state.ui?.pasteArea, error.line, error.column ?? 1);
  }
}

async function onFileChosen() {
  const file = state.ui.fileInput.files?.[0];
  if (!file) return;
  const text = await file.text();
  state.ui.pasteArea.value = text;
  await loadPasted(text);
}

function playRequest(text, moves) {
  return api('samegame/play', { board: text, ...scoringParams(), moves });
}

/** Shows a board from its start, dropping the moves, replay and results of the previous one. */
async function openBoard(board) {
  stopSolve();
  closeReplay();
  state.board = board;
  state.history = [];
  state.cursor = 0;
  state.pointer = null;
  state.keyCursor = null;
  state.playMessage = '';
  Object.assign(state.solve, { samples: [], latest: null, message: '', error: null, result: null });
  render();
  try {
    const answer = await playRequest(board.text, []);
    if (state.board !== board) return;
    state.history = [{ moves: [], state: answer }];
  } catch (error) {
    state.boardError = error;
  }
  render();
}

/** Another scoring: the same games scored anew by the server (the undo stack included). */
async function changeScoring(scoring, penalty) {
  closeReplay();
  state.scoring = scoring;
  state.penalty = penalty;
  const board = state.board;
  if (!board) return;
  await queueAction(async () => {
    const states = await Promise.all(state.history.map((entry) => playRequest(board.text, entry.moves)));
    if (state.board !== board) return;
    state.history = state.history.map((entry, i) => ({ moves: entry.moves, state: states[i] }));
    state.playMessage = '';
    render();
  });
}

// ---------------------------------------------------------------------------------------------
// Play: actions run one after another, each from the position the previous one left

function queueAction(action) {
  state.actionQueue = state.actionQueue.then(action).catch((error) => {
    state.playMessage = error.message;
    render();
  });
  return state.actionQueue;
}

/** Leaving a replay to play on: its frame becomes a new position on the undo stack. */
function takeOverReplay() {
  const replay = state.replay;
  if (!replay) return;
  const frame = replay.shown;
  const moves = replay.moves.slice(0, replay.shownPosition);
  const sameBoard = replay.board === state.board && replay.scoring === scoringKey();
  closeReplay();
  if (frame && sameBoard && JSON.stringify(moves) !== JSON.stringify(currentMoves())) pushPosition(moves, frame);
}

function pushPosition(moves, shown) {
  state.history = state.history.slice(0, state.cursor + 1);
  state.history.push({ moves, state: shown });
  state.cursor = state.history.length - 1;
}

async function removeGroupAt(cell) {
  if (!state.board || state.history.length === 0) return;
  takeOverReplay();
  const shown = shownState();
  const group = groupAt(shown, cell);
  if (!group) {
    state.playMessage = shown?.over ? 'The game is over.' : 'No group there: a lone stone or an empty cell.';
    render();
    return;
  }
  const board = state.board;
  const moves = [...currentMoves(), cell];
  const answer = await playRequest(board.text, moves);
  if (state.board !== board) return;
  pushPosition(moves, answer);
  state.playMessage = `Removed ${group.size} stones for ${group.points} points.`;
  render();
}

async function undo() {
  if (state.replay) takeOverReplay();
  if (state.cursor > 0) state.cursor -= 1;
  state.playMessage = '';
  render();
}

async function redo() {
  if (state.replay) return;
  if (state.cursor < state.history.length - 1) state.cursor += 1;
  state.playMessage = '';
  render();
}

async function restart() {
  takeOverReplay();
  const start = state.history[0];
  if (start && state.cursor !== 0) pushPosition(start.moves, start.state);
  state.playMessage = '';
  render();
}

function setPointer(cell) {
  const before = state.pointer?.join(',');
  state.pointer = cell;
  if (before !== cell?.join(',')) render();
}

function onBoardHover(event) {
  const svg = state.ui.boardHolder.querySelector('svg');
  if (!svg) return;
  setPointer(cellAt(svg, event.clientX, event.clientY));
}

function onBoardClick(event) {
  const svg = state.ui.boardHolder.querySelector('svg');
  if (!svg) return;
  const cell = cellAt(svg, event.clientX, event.clientY);
  if (!cell) return;
  // A touch screen has no hover: the first tap shows a group and its points, a second tap on
  // the same group removes it.
  if (state.pointerType === 'touch') {
    const shown = shownState();
    const tapped = shown ? groupAt(shown, cell) : null;
    const chosen = shown && state.pointer ? groupAt(shown, state.pointer) : null;
    const again = tapped && chosen && chosen.cells.some(([x, y]) => x === cell[0] && y === cell[1]);
    if (!again) {
      setPointer(cell);
      render();
      return;
    }
  }
  queueAction(() => removeGroupAt(cell));
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function onBoardKey(event) {
  if (event.altKey || event.metaKey) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (event.ctrlKey) {
    if (key === 'z' && !event.shiftKey) { event.preventDefault(); queueAction(undo); }
    else if (key === 'y' || (key === 'z' && event.shiftKey)) { event.preventDefault(); queueAction(redo); }
    return;
  }
  const shown = shownState();
  if (!shown) return;
  if (ARROWS[key]) {
    event.preventDefault();
    const [dx, dy] = ARROWS[key];
    const [x, y] = state.keyCursor ?? [0, shown.height - 1];
    state.keyCursor = [Math.max(0, Math.min(shown.width - 1, x + dx)), Math.max(0, Math.min(shown.height - 1, y + dy))];
    setPointer(state.keyCursor);
    render();
  } else if (key === 'Enter' || key === ' ') {
    event.preventDefault();
    const cell = state.keyCursor ?? [0, shown.height - 1];
    state.keyCursor = cell;
    queueAction(() => removeGroupAt(cell)).then(() => setPointer(cell));
  }
}

// ---------------------------------------------------------------------------------------------
// Solve: a samegame_solve job with the form's settings; its progress feeds the chart

/** The scoring of play: {scoring, penalty} as `/api/samegame/play` takes them. */
function scoringParams() {
  const params = {};
  if (state.scoring) params.scoring = state.scoring;
  if (state.penalty) params.penalty = state.penalty;
  return params;
}

function scoringKey() {
  return JSON.stringify(scoringParams());
}

/**
 * The job request: the board, then what the forms changed from the schema's defaults (fields
 * that do not apply to the chosen algorithm, and empty ones, are left to the job's defaults).
 */
function solveRequest() {
  const ui = state.ui;
  return {
    job: 'samegame_solve', text: state.board.text, source: state.board.name,
    ...ui.scoringForm.request(), ...ui.solveForm.request(),
  };
}

async function startSolve() {
  if (!state.board || state.solve.running || !state.ui?.solveForm) return;
  const board = state.board;
  const scoring = scoringKey();
  const controller = new AbortController();
  const solve = state.solve;
  Object.assign(solve, {
    running: true, controller, samples: [], latest: null, message: '', error: null, result: null, board, scoring,
  });
  closeReplay();
  render();
  try {
    const end = await streamJob(solveRequest(), (name, data) => onSolveEvent(board, name, data), controller.signal);
    if (!solve.result && !solve.error) {
      solve.message = end.reason === 'stopped' ? 'Stopped.' : `Ended (${end.reason}) without a result.`;
    }
  } catch (error) {
    solve.error = error;
  } finally {
    solve.running = false;
    solve.controller = null;
    render();
  }
}

function onSolveEvent(board, name, data) {
  const solve = state.solve;
  if (state.board !== board || solve.board !== board) return;
  if (name === 'progress' && data && 'best_score' in data) {
    solve.latest = data;
    if (data.best_score !== null && data.best_score !== undefined) {
      solve.samples.push({ t: Number(data.elapsed_s) || 0, best: Number(data.best_score) });
    }
  } else if (name === 'error') {
    solve.error = new Error(data.error ?? String(data));
  } else if (name === 'result') {
    solve.result = data;
    solve.samples.push({ t: Number(data.time_s) || 0, best: Number(data.score) });
    solve.message = `Best score ${data.score} in ${data.moves.length} moves`
      + `${data.cleared ? ' (board cleared)' : ''}: ${data.algo}, ${Number(data.iterations).toLocaleString()} iterations, `
      + `${Number(data.time_s).toFixed(2)} s.`;
    openReplay(data.moves.map((move) => [move.col, move.row]), data.score);
  }
  render();
}

function stopSolve() {
  state.solve.controller?.abort();
}

// ---------------------------------------------------------------------------------------------
// Replay of the best game: each frame is the server's state after a prefix of its moves

function openReplay(moves, score) {
  closeReplay();
  const replay = { moves, score, board: state.board, scoring: scoringKey(), frames: [], shown: null, shownPosition: 0 };
  state.replay = replay;
  prefetchFrames(replay);
  state.playback.goTo(0).then(() => { if (state.replay === replay) state.playback.play(); });
}

function closeReplay() {
  if (!state.replay) return;
  state.playback.reset();
  state.replay = null;
}

function frameAt(replay, position) {
  if (!replay.frames[position]) {
    replay.frames[position] = api('samegame/play', {
      board: replay.board.text, ...JSON.parse(replay.scoring), moves: replay.moves.slice(0, position),
    });
    replay.frames[position].catch(() => { replay.frames[position] = null; });
  }
  return replay.frames[position];
}

/** Fetches the frames ahead of time, a few requests at once. */
async function prefetchFrames(replay) {
  let next = 0;
  const worker = async () => {
    while (state.replay === replay && next <= replay.moves.length) {
      const position = next++;
      await frameAt(replay, position).catch(() => {});
    }
  };
  await Promise.all([worker(), worker(), worker()]);
}

/** The playback's showFrame: draws the replay's frame `position` once the server has sent it. */
async function showFrame(position) {
  const replay = state.replay;
  if (!replay) return;
  render();
  try {
    const frame = await frameAt(replay, position);
    if (state.replay === replay && state.playback.position === position) {
      replay.shown = frame;
      replay.shownPosition = position;
      render();
    }
  } catch (error) {
    state.solve.error = error;
    state.playback.pause();
    render();
  }
}

// ---------------------------------------------------------------------------------------------
// The best-score chart (SVG by hand): a step line of the best score over the search's time

function bestScoreChart() {
  const title = 'Best score over time';
  const size = { width: 600, height: 220, left: 62, right: 16, top: 12, bottom: 40 };
  const plotWidth = size.width - size.left - size.right;
  const plotHeight = size.height - size.top - size.bottom;
  const samples = state.solve.samples;
  const timeLimit = Number(state.solve.latest?.time_limit_s) || 0;
  // Four grid steps of a round size on each axis.
  // The axis ends at the time limit (a search may overrun it by a few milliseconds).
  const latestT = Math.max(0, ...samples.map((sample) => sample.t));
  const tEnd = timeLimit > 0 && latestT <= timeLimit * 1.05 ? timeLimit : Math.max(1, latestT);
  const tMax = 4 * niceCeiling(tEnd / 4);
  const values = samples.map((sample) => sample.best);
  const lowest = Math.min(0, ...values);
  const yStep = niceCeiling(Math.max(1, Math.max(1, ...values) - lowest) / 4);
  const yBottom = lowest < 0 ? -yStep * Math.ceil(-lowest / yStep) : 0;
  const yTop = yBottom + 4 * yStep < Math.max(1, ...values) ? yBottom + 5 * yStep : yBottom + 4 * yStep;
  const x = (t) => size.left + (Math.min(t, tMax) / tMax) * plotWidth;
  const y = (v) => size.top + plotHeight - ((v - yBottom) / (yTop - yBottom)) * plotHeight;
  const last = samples.at(-1);
  const description = last
    ? `${title}: ${last.best} points at ${last.t.toFixed(1)} s`
    : `${title}: no search yet`;
  const svg = svgNode('svg', {
    viewBox: `0 0 ${size.width} ${size.height}`, class: 'chart-svg', role: 'img', 'aria-label': description,
  });
  svg.append(svgNode('rect', { x: size.left, y: size.top, width: plotWidth, height: plotHeight, class: 'chart-area' }));
  for (let i = 0; yBottom + yStep * i <= yTop + yStep * 1e-9; i++) {
    const tickY = yBottom + yStep * i;
    svg.append(svgNode('line', { x1: size.left, x2: size.left + plotWidth, y1: y(tickY), y2: y(tickY), class: 'chart-grid' }));
    svg.append(svgText(formatTick(tickY), size.left - 6, y(tickY) + 4, 'end'));
  }
  for (let i = 0; i <= 4; i++) {
    const tickT = (tMax * i) / 4;
    svg.append(svgText(formatTick(tickT), x(tickT), size.top + plotHeight + 16, 'middle'));
  }
  svg.append(svgText('search time (s)', size.left + plotWidth / 2, size.height - 4, 'middle', 'chart-axis-label'));
  const yText = svgText('best score (points)', 14, size.top + plotHeight / 2, 'middle', 'chart-axis-label');
  yText.setAttribute('transform', `rotate(-90 14 ${size.top + plotHeight / 2})`);
  svg.append(yText);
  if (samples.length > 0) {
    // A step line: the best score holds until the next improvement.
    const sorted = [...samples].sort((a, b) => a.t - b.t);
    let points = `${x(sorted[0].t).toFixed(1)},${y(sorted[0].best).toFixed(1)}`;
    for (let i = 1; i < sorted.length; i++) {
      points += ` ${x(sorted[i].t).toFixed(1)},${y(sorted[i - 1].best).toFixed(1)} ${x(sorted[i].t).toFixed(1)},${y(sorted[i].best).toFixed(1)}`;
    }
    svg.append(svgNode('polyline', { points, class: 'chart-line' }));
  }
  const result = state.solve.result;
  if (result) svg.append(svgNode('circle', { cx: x(Number(result.time_s) || 0), cy: y(result.score), r: 3.5, class: 'chart-mark' }));
  return [svg, el('figcaption', {}, `${title}${result ? ` (the dot: the game replayed below, ${result.score} points)` : ''}`)];
}

function formatTick(value) {
  if (Math.abs(value) >= 10000) return `${Math.round(value / 1000)}k`;
  if (Math.abs(value) >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}
