// The Sudoku page: choose, paste or generate a puzzle, fill it in (keys or mouse, undo/redo),
// see candidates and clashes, ask for a hint, solve it exactly or with the thesis's MCTS. Every
// rule (candidates, clashes, solved, hints, solutions) comes from the server; the page keeps
// only view state in `state`.

import { api, streamJob } from '../api.js';
import { buildGrid, paintGrid, symbol } from '../board/sudoku.js';
import { el, field } from '../ui.js';
import { buildForm, jobInfo } from '../forms.js';

const PASTED_SET = 'pasted';
const GENERATED_SET = 'generated';
const MOVE_KEYS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
/** The `sudoku_solve` fields the page fills itself: the puzzle on screen. */
const PAGE_FIELDS = ['puzzles', 'source'];

/** The page's only mutable state; it outlives a visit to another page. */
const state = {
  sets: [],              // [{id, name, puzzles}]
  setId: 'top95',
  puzzles: [],           // puzzle records of the chosen set (or of the pasted text)
  puzzlePosition: 0,
  puzzle: null,          // {title, line: 81 symbols of givens}
  loadError: null,       // Error with line/column from the server
  history: [],           // undo stack: [{entries, view}] as the server gave them
  cursor: 0,
  selected: 0,           // the selected cell
  showCandidates: false,
  actionQueue: Promise.resolve(),
  playError: null,
  hint: { pending: false, message: '', cell: null, value: null, marked: [] },
  jobs: null,            // {solve, generate}: {name, title, schema} of `sudoku_solve` and `sudoku_generate`
  // The solve form's values, kept for the next visit; the page starts on the exact solver
  // (instant, and it proves uniqueness), the job's default being MCTS.
  solveValues: { algo: 'exact' },
  generateSeed: 1 + Math.floor(Math.random() * 100000),
  solve: { running: false, controller: null, progress: null, message: '', error: null },
  generate: { running: false, controller: null, message: '', error: null },
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
    state.solve.controller?.abort();
    state.generate.controller?.abort();
    state.root = null;
    state.ui = null;
  };
}

async function startPage() {
  try {
    if (state.sets.length === 0 || !state.jobs) {
      const [sets, solve, generate] = await Promise.all([api('sudoku/sets'), jobInfo('sudoku_solve'), jobInfo('sudoku_generate')]);
      state.sets = sets;
      state.jobs = { solve, generate };
      renderSetOptions();
    }
    buildForms();
    if (!state.puzzle) await chooseSet(state.setId);
  } catch (error) {
    state.loadError = error;
  }
  render();
}

/** The solve settings and the generator's seed, built from the jobs' schemas. */
function buildForms() {
  const ui = state.ui;
  if (!ui || !state.jobs || ui.solveForm) return;
  ui.solveForm = buildForm(state.jobs.solve, {
    idPrefix: 'sudoku-', exclude: PAGE_FIELDS, values: state.solveValues,
    onChange: (form) => {
      try { state.solveValues = form.values(); } catch { /* shown when the solve starts */ }
    },
  });
  ui.generateForm = buildForm(state.jobs.generate, {
    idPrefix: 'sudoku-generate-', only: ['seed'], values: { seed: state.generateSeed },
    onChange: (form) => {
      try { state.generateSeed = form.value('seed'); } catch { /* shown when generating */ }
    },
  });
  ui.solveFields.replaceChildren(ui.solveForm.element);
  ui.generateFields.replaceChildren(ui.generateForm.element);
  render();
}

function buildPage() {
  const ui = {};
  state.ui = ui;

  // Puzzles
  ui.setSelect = el('select', { id: 'sudoku-set', onchange: () => chooseSet(ui.setSelect.value) });
  ui.puzzleSelect = el('select', { id: 'sudoku-puzzle', onchange: () => choosePuzzle(Number(ui.puzzleSelect.value)) });
  ui.pasteArea = el('textarea', {
    id: 'sudoku-paste', rows: 3, cols: 30, spellcheck: 'false', class: 'xsb-input',
    placeholder: '81 symbols: 1-9, . or 0 for empty', 'aria-describedby': 'sudoku-paste-error',
  });
  ui.loadButton = el('button', { type: 'button', onclick: () => loadPasted(ui.pasteArea.value) }, 'Load');
  ui.loadError = el('p', { id: 'sudoku-paste-error', class: 'error', role: 'alert' });
  ui.puzzleTitle = el('p', { class: 'level-title' });
  ui.generateFields = el('div', { class: 'sudoku-generate-fields' });
  ui.generateButton = el('button', { type: 'button', onclick: generatePuzzle }, 'Generate puzzle');
  ui.generateStatus = el('p', { class: 'note', role: 'status' });
  ui.generateError = el('p', { class: 'error', role: 'alert' });

  const puzzlesSection = el('section', { class: 'panel levels', 'aria-labelledby': 'sudoku-puzzles-heading' },
    el('h2', { id: 'sudoku-puzzles-heading' }, 'Puzzles'),
    field('Puzzle set', ui.setSelect),
    field('Puzzle', ui.puzzleSelect),
    ui.puzzleTitle,
    field('Paste puzzle', ui.pasteArea),
    ui.loadError,
    el('div', { class: 'buttons' }, ui.loadButton),
    el('div', { class: 'row' }, ui.generateFields, el('div', { class: 'buttons' }, ui.generateButton)),
    ui.generateStatus, ui.generateError,
  );

  // Play
  ui.gridHolder = el('div', { class: 'sudoku-holder' });
  ui.digitButtons = Array.from({ length: 9 }, (_, k) => el('button', {
    type: 'button', class: 'digit', 'aria-label': `Enter ${k + 1}`, onclick: () => enterValue(k + 1),
  }, String(k + 1)));
  ui.clearButton = el('button', { type: 'button', onclick: () => enterValue(0) }, 'Clear cell');
  ui.filledOutput = el('output', { id: 'sudoku-filled' }, '0');
  ui.conflictsOutput = el('output', { id: 'sudoku-conflicts' }, '0');
  ui.solvedStatus = el('p', { class: 'solved', role: 'status' });
  ui.playError = el('p', { class: 'error', role: 'alert' });
  ui.undoButton = el('button', { type: 'button', onclick: () => queueAction(undo), 'aria-keyshortcuts': 'Control+Z' }, 'Undo');
  ui.redoButton = el('button', { type: 'button', onclick: () => queueAction(redo), 'aria-keyshortcuts': 'Control+Y Control+Shift+Z' }, 'Redo');
  ui.restartButton = el('button', { type: 'button', onclick: () => queueAction(restart) }, 'Clear entries');
  ui.candidatesBox = el('input', {
    id: 'sudoku-candidates', type: 'checkbox', checked: state.showCandidates,
    onchange: () => { state.showCandidates = ui.candidatesBox.checked; render(); },
  });
  ui.hintButton = el('button', { type: 'button', onclick: askHint }, 'Hint');
  ui.applyHintButton = el('button', { type: 'button', onclick: applyHint }, 'Fill hinted cell');
  ui.hintMessage = el('p', { class: 'note hint-message', role: 'status' });

  const playSection = el('section', { class: 'panel play', 'aria-labelledby': 'sudoku-play-heading' },
    el('h2', { id: 'sudoku-play-heading' }, 'Play'),
    ui.gridHolder,
    el('p', { id: 'sudoku-help', class: 'help' },
      'Click a cell or move with the arrow keys; type 1–9 to enter, 0, ., Backspace or Delete to clear; Ctrl+Z undoes, Ctrl+Y redoes.'),
    el('div', { class: 'buttons digits', role: 'group', 'aria-label': 'Digits' }, ui.digitButtons, ui.clearButton),
    el('div', { class: 'counters' },
      el('span', { class: 'counter' }, el('label', { for: 'sudoku-filled' }, 'Filled'), ' ', ui.filledOutput),
      el('span', { class: 'counter' }, el('label', { for: 'sudoku-conflicts' }, 'Clashes'), ' ', ui.conflictsOutput)),
    ui.solvedStatus, ui.playError,
    el('div', { class: 'buttons' }, ui.undoButton, ui.redoButton, ui.restartButton),
    el('div', { class: 'check' }, ui.candidatesBox, el('label', { for: 'sudoku-candidates' }, 'Show candidates')),
    el('div', { class: 'buttons' }, ui.hintButton, ui.applyHintButton),
    ui.hintMessage,
  );

  // Solve
  // The solver's settings arrive with the job's schema (buildForms).
  ui.solveFields = el('div', { class: 'sudoku-solve-fields' }, el('p', { class: 'note' }, 'Loading the settings…'));
  ui.solveButton = el('button', { type: 'button', onclick: startSolve }, 'Solve');
  ui.stopButton = el('button', { type: 'button', onclick: () => state.solve.controller?.abort() }, 'Stop');
  ui.solveProgress = el('p', { class: 'stats', 'aria-live': 'off' });
  ui.solveStatus = el('p', { class: 'note', role: 'status' });
  ui.solveError = el('p', { class: 'error', role: 'alert' });

  const solveSection = el('section', { class: 'panel solve', 'aria-labelledby': 'sudoku-solve-heading' },
    el('h2', { id: 'sudoku-solve-heading' }, 'Solve'),
    ui.solveFields,
    el('div', { class: 'buttons' }, ui.solveButton, ui.stopButton),
    ui.solveProgress, ui.solveStatus, ui.solveError,
  );

  renderSetOptions();
  return el('div', { class: 'page sudoku-page' },
    el('h1', {}, 'Sudoku'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-main' }, playSection),
      el('div', { class: 'column-side' }, puzzlesSection, solveSection)));
}

// ---------------------------------------------------------------------------------------------
// Rendering

function currentView() {
  return state.history[state.cursor]?.view ?? null;
}

function currentEntries() {
  return state.history[state.cursor]?.entries ?? '';
}

function render() {
  const ui = state.ui;
  if (!ui) return;
  const view = currentView();
  if (view && (!ui.grid || ui.grid.side !== view.side)) {
    ui.grid = buildGrid(view.side, view.box_size, { onCellClick: selectCell });
    ui.grid.element.setAttribute('aria-describedby', 'sudoku-help');
    ui.grid.element.addEventListener('keydown', onGridKey);
    ui.gridHolder.replaceChildren(ui.grid.element);
  } else if (!view && !ui.grid) {
    ui.gridHolder.replaceChildren(el('p', { class: 'note' }, state.loadError ? 'No puzzle loaded.' : 'Loading…'));
  }
  if (view && ui.grid) {
    paintGrid(ui.grid, view, {
      selected: state.selected, showCandidates: state.showCandidates,
      hintCell: state.hint.cell, markedCells: new Set(state.hint.marked),
    });
  }
  ui.filledOutput.value = view ? `${view.filled} / ${view.cells.length}` : '0';
  ui.conflictsOutput.value = String(view?.conflicts.length ?? 0);
  ui.solvedStatus.textContent = view?.solved ? 'Solved!' : '';
  ui.playError.textContent = state.playError ? state.playError.message : '';
  ui.undoButton.disabled = state.cursor === 0;
  ui.redoButton.disabled = state.cursor >= state.history.length - 1;
  ui.restartButton.disabled = !view || !/[^.]/.test(currentEntries());
  ui.hintButton.disabled = !view || state.hint.pending;
  ui.applyHintButton.disabled = !view || state.hint.value === null || currentView()?.cells[state.hint.cell]?.value !== 0;
  ui.hintMessage.textContent = state.hint.message;

  ui.puzzleTitle.textContent = state.puzzle ? `Puzzle: ${state.puzzle.title}` : '';
  ui.loadError.textContent = state.loadError ? state.loadError.message : '';
  ui.pasteArea.toggleAttribute('aria-invalid', Boolean(state.loadError?.line));
  if (ui.setSelect.value !== state.setId) ui.setSelect.value = state.setId;
  renderPuzzleOptions();
  ui.generateStatus.textContent = state.generate.running ? 'Generating…' : state.generate.message;
  ui.generateError.textContent = state.generate.error ? state.generate.error.message : '';

  ui.solveButton.disabled = !view || state.solve.running || !ui.solveForm;
  ui.generateButton.disabled = state.generate.running || !ui.generateForm;
  ui.stopButton.disabled = !state.solve.running;
  ui.solveProgress.textContent = solveProgressText();
  ui.solveStatus.textContent = state.solve.running ? 'Solving…' : state.solve.message;
  ui.solveError.textContent = state.solve.error ? state.solve.error.message : '';
}

function solveProgressText() {
  const p = state.solve.progress;
  if (!p) return '';
  return `Simulations ${p.simulations.toLocaleString()} · restarts ${p.restarts.toLocaleString()} · `
    + `deepest fill ${p.best_filled} / ${p.cells} cells · ${p.elapsed_s.toFixed(1)} s`;
}

function renderSetOptions() {
  const ui = state.ui;
  if (!ui) return;
  const options = state.sets.map((set) => el('option', { value: set.id }, `${set.name} (${set.puzzles})`));
  if (state.setId === PASTED_SET) options.push(el('option', { value: PASTED_SET }, 'Pasted puzzles'));
  if (state.setId === GENERATED_SET) options.push(el('option', { value: GENERATED_SET }, 'Generated puzzle'));
  ui.setSelect.replaceChildren(...options);
  ui.setSelect.value = state.setId;
}

function renderPuzzleOptions() {
  const ui = state.ui;
  const signature = `${state.setId}:${state.puzzles.length}:${state.puzzles[0]?.puzzle ?? ''}`;
  if (ui.puzzleSelect.dataset.signature !== signature) {
    ui.puzzleSelect.dataset.signature = signature;
    ui.puzzleSelect.replaceChildren(...state.puzzles.map((p, position) =>
      el('option', { value: String(position) }, `${p.index} (${p.clues} clues)`)));
  }
  ui.puzzleSelect.value = String(state.puzzlePosition);
}

// ---------------------------------------------------------------------------------------------
// Puzzles

async function chooseSet(setId) {
  if (setId === PASTED_SET || setId === GENERATED_SET) return;
  try {
    const set = await api(`sudoku/sets/${encodeURIComponent(setId)}`);
    state.setId = setId;
    state.puzzles = set.puzzles;
    state.loadError = null;
    renderSetOptions();
    await choosePuzzle(0);
  } catch (error) {
    state.loadError = error;
    render();
  }
}

async function choosePuzzle(position) {
  const record = state.puzzles[position];
  if (!record) return;
  state.puzzlePosition = position;
  const setName = state.sets.find((s) => s.id === state.setId)?.name ?? 'pasted';
  await openPuzzle({ title: `${setName} #${record.index}, ${record.clues} clues`, line: record.puzzle });
}

async function loadPasted(text) {
  try {
    const { puzzles } = await api('sudoku/parse', { text });
    state.loadError = null;
    state.setId = PASTED_SET;
    state.puzzles = puzzles;
    state.puzzlePosition = 0;
    renderSetOptions();
    await openPuzzle({ title: `pasted #1, ${puzzles[0].clues} clues`, line: puzzles[0].puzzle });
  } catch (error) {
    state.loadError = error;
    render();
    if (error.line) moveCaretTo(state.ui?.pasteArea, error.line, error.column ?? 1);
  }
}

/** Puts a textarea's caret at a 1-based line and column of its text. */
function moveCaretTo(area, line, column) {
  if (!area) return;
  const lines = area.value.split('\n');
  let offset = 0;
  for (let k = 0; k < Math.min(line - 1, lines.length); k++) offset += lines[k].length + 1;
  offset += Math.max(0, column - 1);
  area.focus();
  area.setSelectionRange(offset, offset + 1);
}

async function openPuzzle(puzzle) {
  const entries = '.'.repeat(puzzle.line.length);
  try {
    const view = await api('sudoku/state', { puzzle: puzzle.line, entries });
    state.puzzle = puzzle;
    state.history = [{ entries, view }];
    state.cursor = 0;
    state.selected = Math.max(0, view.cells.findIndex((c) => !c.given));
    state.playError = null;
    state.hint = { pending: false, message: '', cell: null, value: null, marked: [] };
    state.solve.message = '';
    state.solve.error = null;
    state.solve.progress = null;
  } catch (error) {
    state.loadError = error;
  }
  render();
}

async function generatePuzzle() {
  const ui = state.ui;
  const generate = state.generate;
  if (generate.running || !ui?.generateForm) return;
  let settings;
  try {
    settings = ui.generateForm.request();
  } catch (error) {
    generate.error = error;
    render();
    return;
  }
  const controller = new AbortController();
  Object.assign(generate, { running: true, controller, message: '', error: null });
  render();
  let made = null;
  try {
    // One puzzle with the form's seed (empty: the job's default seed).
    const seed = settings.seed;
    const seedText = seed === undefined ? 'the default seed' : `seed ${seed}`;
    await streamJob({ job: 'sudoku_generate', count: 1, ...settings }, (name, data) => {
      if (name === 'result') made = data;
      else if (name === 'error') generate.error = new Error(data.error ?? String(data));
    }, controller.signal);
    if (made) {
      generate.message = `Generated a puzzle with a unique solution: ${made.clues} clues, ${made.difficulty} (${seedText}).`;
      state.setId = GENERATED_SET;
      state.puzzles = [{ index: 1, puzzle: made.puzzle, clues: made.clues, line: 1 }];
      state.puzzlePosition = 0;
      renderSetOptions();
      await openPuzzle({ title: `generated (${seedText}), ${made.clues} clues`, line: made.puzzle });
      if (seed !== undefined) {
        state.generateSeed = seed + 1;
        state.ui?.generateForm?.set('seed', state.generateSeed);
      }
    } else if (!generate.error) {
      generate.message = 'Stopped.';
    }
  } catch (error) {
    generate.error = error;
  } finally {
    generate.running = false;
    generate.controller = null;
    render();
  }
}

// ---------------------------------------------------------------------------------------------
// Playing: every change asks the server for the new state, then joins the undo stack

/** Runs actions one after another, so fast typing keeps its order. */
function queueAction(action) {
  state.actionQueue = state.actionQueue.then(action).catch((error) => {
    state.playError = error;
    render();
  });
  return state.actionQueue;
}

async function pushEntries(entries) {
  const view = await api('sudoku/state', { puzzle: state.puzzle.line, entries });
  state.history = state.history.slice(0, state.cursor + 1);
  state.history.push({ entries, view });
  state.cursor = state.history.length - 1;
  state.playError = null;
  clearHint();
}

/** A hint speaks of one grid: it goes when the grid changes. */
function clearHint() {
  if (state.hint.pending) return;
  state.hint = { pending: false, message: '', cell: null, value: null, marked: [] };
}

function selectCell(i) {
  state.selected = i;
  render();
  state.ui?.grid?.cells[i]?.cell.focus();
}

function enterValue(value) {
  const index = state.selected;
  return queueAction(async () => {
    const view = currentView();
    if (!view || !state.puzzle) return;
    if (view.cells[index].given) {
      state.playError = new Error(`Row ${Math.floor(index / view.side) + 1}, column ${(index % view.side) + 1} is a given.`);
      render();
      return;
    }
    const entries = currentEntries();
    const next = entries.slice(0, index) + (value ? symbol(value) : '.') + entries.slice(index + 1);
    if (next === entries) return;
    await pushEntries(next);
    render();
  });
}

function undo() {
  if (state.cursor > 0) state.cursor--;
  clearHint();
  render();
}

function redo() {
  if (state.cursor < state.history.length - 1) state.cursor++;
  clearHint();
  render();
}

async function restart() {
  if (!state.puzzle) return;
  await pushEntries('.'.repeat(state.puzzle.line.length));
  render();
}

function onGridKey(event) {
  const view = currentView();
  if (!view) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && !event.altKey) {
    const lower = key.toLowerCase();
    if (lower === 'z' && !event.shiftKey) { event.preventDefault(); queueAction(undo); }
    else if (lower === 'y' || (lower === 'z' && event.shiftKey)) { event.preventDefault(); queueAction(redo); }
    return;
  }
  if (event.altKey) return;
  if (MOVE_KEYS[key]) {
    event.preventDefault();
    const [dr, dc] = MOVE_KEYS[key];
    const side = view.side;
    const row = (Math.floor(state.selected / side) + dr + side) % side;
    const column = ((state.selected % side) + dc + side) % side;
    selectCell(row * side + column);
  } else if (/^[1-9]$/.test(key) && Number(key) <= view.side) {
    event.preventDefault();
    enterValue(Number(key));
  } else if (['0', '.', 'Backspace', 'Delete'].includes(key)) {
    event.preventDefault();
    enterValue(0);
  }
}

// ---------------------------------------------------------------------------------------------
// Hints

async function askHint() {
  const view = currentView();
  if (!view || state.hint.pending) return;
  state.hint = { pending: true, message: 'Looking for a hint…', cell: null, value: null, marked: [] };
  render();
  const puzzle = state.puzzle;
  const entries = currentEntries();
  try {
    const hint = await api('sudoku/hint', { puzzle: puzzle.line, entries });
    if (state.puzzle !== puzzle) return;
    state.hint = {
      pending: false, message: hint.message,
      cell: hint.kind === 'place' ? hint.cell : null,
      value: hint.kind === 'place' ? hint.value : null,
      marked: hint.kind === 'conflicts' || hint.kind === 'no_solution' ? hint.cells : [],
    };
    if (hint.kind === 'place') state.selected = hint.cell;
  } catch (error) {
    state.hint = { pending: false, message: `No hint: ${error.message}`, cell: null, value: null, marked: [] };
  }
  render();
}

function applyHint() {
  const { cell, value } = state.hint;
  if (cell === null || value === null) return;
  state.selected = cell;
  const message = state.hint.message;
  enterValue(value).then(() => {
    state.hint = { pending: false, cell: null, value: null, marked: [], message: `${message} Filled.` };
    render();
  });
}

// ---------------------------------------------------------------------------------------------
// Solving: a sudoku_solve job on the givens; the verified solution fills the grid

/** The puzzle on screen, and only the settings changed from the job's defaults. */
function solveRequest() {
  return { job: 'sudoku_solve', puzzles: state.puzzle.line, source: 'puzzle', ...state.ui.solveForm.request() };
}

async function startSolve() {
  if (!state.puzzle || state.solve.running || !state.ui?.solveForm) return;
  const solve = state.solve;
  const puzzle = state.puzzle;
  const controller = new AbortController();
  let request;
  try {
    request = solveRequest();
  } catch (error) {
    solve.error = error;
    render();
    return;
  }
  Object.assign(solve, { running: true, controller, progress: null, message: '', error: null });
  render();
  let result = null;
  try {
    const end = await streamJob(request, (name, data) => {
      if (state.puzzle !== puzzle) return;
      if (name === 'progress' && data.best_filled !== undefined) solve.progress = data;
      else if (name === 'result') result = data;
      else if (name === 'error') solve.error = new Error(data.error ?? String(data));
      render();
    }, controller.signal);
    if (state.puzzle !== puzzle) return;
    if (result?.solved) {
      solve.message = solvedMessage(result);
      await queueAction(() => pushEntries(result.solution));
    } else if (result) {
      solve.message = result.algo === 'exact' && result.solutions === 0
        ? 'The puzzle has no solution.'
        : `Not solved: ${result.simulations.toLocaleString()} simulations, ${result.restarts} restarts, ${result.time_s.toFixed(2)} s.`;
    } else if (!solve.error) {
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

function solvedMessage(result) {
  if (result.algo === 'exact') {
    const unique = result.solutions === 1
      ? 'the solution is unique'
      : 'the solution is not unique (another one exists)';
    return `Solved exactly in ${(result.time_s * 1000).toFixed(1)} ms: ${unique}; ${result.guesses} guesses.`;
  }
  return `Solved by MCTS in ${result.time_s.toFixed(2)} s: ${result.simulations.toLocaleString()} simulations, `
    + `${result.restarts} restarts (solution verified).`;
}
