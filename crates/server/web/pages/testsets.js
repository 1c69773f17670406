// The test-set page (the Czech thesis's test-set panel): a game, a bundled set or an uploaded
// file, a solver (the choices of the game's job, from its schema) and its per-item limit and
// threads (a form built from the schema by forms.js); Run streams the game's job and
// fills a table row by row (item, solved, score, moves, time) with live totals; Stop stops
// the job and keeps the rows; "Download JSON Lines" saves the job's `result` records exactly
// as the server sent them (the CLI's `--json` lines).

import { api, streamJob } from '../api.js';
import { el, field, downloadText } from '../ui.js';
import { buildForm, choiceSelect, describeField, fieldChoices, jobInfo } from '../forms.js';

/**
 * Per game: the job, the field of its request that names the solver (`solver`, a choice or a
 * list of choices: the page runs one), the per-item limit field with the page's label for it
 * where the item needs naming, and the value it starts from (`preset`, typed; undefined: the job's default), the job request
 * and how a result record fills a row. The choices, ranges and help come from the job's schema.
 * `takesText`: the job takes the items as text (a bundled set's text comes from `GET
 * /api/sets/{game}/{id}`). `firstInJob`: the job takes "first N" itself; otherwise the page
 * stops the job once N results have arrived.
 */
const GAMES = {
  sokoban: {
    label: 'Sokoban',
    job: 'sokoban_bench',
    solver: 'algos',
    limit: { field: 'time_limit', label: 'Time limit per level (s)', preset: 5 },
    upload: true,
    accept: '.xsb,.sok,.txt',
    firstInJob: true,
    hasScore: false,
    request: ({ set, file, algo, first, settings }) => ({
      job: 'sokoban_bench',
      sets: [file ? { name: file.name, xsb: file.text } : { name: set }],
      algos: [algo],
      first: first ?? undefined,
      ...settings,
    }),
    row: (r) => ({
      item: `${r.level}${r.title && r.title !== String(r.level) ? ` ${r.title}` : ''}`,
      solved: r.solved, score: null, moves: r.solved ? `${r.moves} (${r.pushes} pushes)` : null, time: r.time_s,
    }),
  },
  samegame: {
    label: 'SameGame',
    job: 'samegame_solve',
    solver: 'algo',
    limit: { field: 'time_limit', label: 'Time limit per board (s)', preset: 5 },
    upload: true,
    accept: '.txt,.csv',
    firstInJob: false,
    takesText: true,
    hasScore: true,
    solvedMeans: 'Solved: the board was cleared.',
    request: ({ text, source, algo, settings }) => ({ job: 'samegame_solve', text, source, algo, ...settings }),
    row: (r) => ({ item: `${r.board} ${r.name}`, solved: r.cleared, score: r.score, moves: r.moves.length, time: r.time_s }),
  },
  sudoku: {
    label: 'Sudoku',
    job: 'sudoku_solve',
    solver: 'algo',
    limit: { field: 'time_limit', label: 'Time limit per puzzle (s)', preset: 5 },
    upload: true,
    accept: '.txt,.sdm,.sdk',
    firstInJob: false,
    takesText: true,
    hasScore: false,
    request: ({ text, source, algo, settings }) => ({ job: 'sudoku_solve', puzzles: text, source, algo, ...settings }),
    row: (r) => ({ item: `${r.index} (line ${r.line})`, solved: r.solved, score: null, moves: null, time: r.time_s }),
  },
  bait: {
    label: 'Bait',
    job: 'bait_experiment',
    solver: 'agents',
    limit: { field: 'budget_ms' },
    upload: false,
    firstInJob: true,
    hasScore: true,
    solvedMeans: 'Solved: the agent won; moves are ticks played; one game per level (seed 0).',
    request: ({ algo, first, settings }) => ({
      job: 'bait_experiment',
      agents: [algo],
      levels: first ? Array.from({ length: Math.min(first, 5) }, (_, i) => i) : [],
      seeds: 1,
      ...settings,
    }),
    row: (r) => ({ item: `level ${r.level}`, solved: r.win, score: r.score, moves: r.ticks, time: null }),
  },
};

/** The page's only mutable state; a running job keeps going while another page is shown. */
const state = {
  sets: [],            // every bundled set: {id, game, name, items}
  jobs: {},            // {name, title, schema} per game's job (GET /api/jobs)
  form: { game: 'sokoban', from: 'bundled', set: 'microban', algo: null, first: '' },
  settings: Object.fromEntries(Object.entries(GAMES).map(([game, spec]) => [game,
    spec.limit.preset === undefined ? {} : { [spec.limit.field]: spec.limit.preset }])),
  file: null,          // {name, text} of the uploaded file
  running: false,
  controller: null,
  run: null,           // {game, first, total, stopAtFirst, source text} of the current or last run
  results: [],         // [{record, text}]: each `result` event's data and its exact JSON text
  progress: null,      // the last item progress ({done, total, solved, elapsed_s})
  search: null,        // the last in-item progress (best score, simulations …)
  reachedFirst: false, // the page stopped the job after the first N results
  message: '',
  error: null,         // {message, line, column, excerpt}
  ui: null,
};

export function mount(main) {
  main.append(buildPage());
  renderForm();
  render();
  loadChoices();
  return () => { state.ui = null; };
}

async function loadChoices() {
  try {
    const [sets, ...jobs] = await Promise.all([api('sets'), ...Object.values(GAMES).map((spec) => jobInfo(spec.job))]);
    state.sets = sets;
    Object.keys(GAMES).forEach((game, i) => { state.jobs[game] = jobs[i]; });
  } catch (error) {
    state.error = { message: `Cannot list the bundled sets: ${error.message}` };
  }
  renderForm();
  render();
}

// ---------------------------------------------------------------------------------------------
// The page

function buildPage() {
  const ui = {};
  state.ui = ui;
  ui.game = el('select', { id: 'ts-game', onchange: () => changeGame(ui.game.value) },
    Object.entries(GAMES).map(([id, game]) => el('option', { value: id }, game.label)));
  ui.fromBundled = el('input', { type: 'radio', id: 'ts-from-bundled', name: 'ts-from', value: 'bundled', onchange: readForm });
  ui.fromFile = el('input', { type: 'radio', id: 'ts-from-file', name: 'ts-from', value: 'file', onchange: readForm });
  ui.set = el('select', { id: 'ts-set', onchange: readForm });
  ui.fileInput = el('input', { type: 'file', id: 'ts-file', onchange: readFile });
  ui.fileNote = el('p', { class: 'note', id: 'ts-file-note' });
  ui.algo = el('select', { id: 'ts-algo', onchange: readForm });
  ui.settings = el('div', { class: 'ts-settings' });
  ui.first = el('input', { type: 'number', id: 'ts-first', min: 1, step: 1, placeholder: 'all', oninput: readForm });
  ui.runButton = el('button', { type: 'submit' }, 'Run');
  ui.cancelButton = el('button', { type: 'button', onclick: cancel }, 'Stop');
  ui.form = el('form', {
    class: 'testsets-form', 'aria-labelledby': 'ts-form-heading',
    onsubmit: (event) => { event.preventDefault(); run(); },
  },
  el('h2', { id: 'ts-form-heading' }, 'Run a test set'),
  field('Game', ui.game),
  el('fieldset', {},
    el('legend', {}, 'Items'),
    el('div', { class: 'check' }, ui.fromBundled, el('label', { for: 'ts-from-bundled' }, 'Bundled set')),
    field('Set', ui.set),
    el('div', { class: 'check' }, ui.fromFile, el('label', { for: 'ts-from-file' }, 'Uploaded file')),
    field('File', ui.fileInput),
    ui.fileNote),
  el('div', { class: 'option-grid' },
    el('div', { class: 'field wide' }, el('label', { for: 'ts-algo' }, 'Solver'), ui.algo),
    field('First N items (empty: all)', ui.first)),
  ui.settings,
  el('div', { class: 'buttons' }, ui.runButton, ui.cancelButton));
  ui.error = el('div', { class: 'error', role: 'alert' });
  ui.message = el('p', { class: 'note', role: 'status' });

  ui.progress = el('p', { class: 'stats', id: 'ts-progress', 'aria-label': 'Progress' });
  ui.totals = el('dl', { class: 'totals', 'aria-label': 'Totals' });
  ui.rows = el('tbody');
  ui.table = el('table', { class: 'results' },
    el('caption', {}, 'Results, one row per item as it finishes'),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Item'), el('th', { scope: 'col' }, 'Solved'),
      ui.scoreHeader = el('th', { scope: 'col', class: 'num' }, 'Score'),
      el('th', { scope: 'col', class: 'num' }, 'Moves'), el('th', { scope: 'col', class: 'num' }, 'Time (s)'))),
    ui.rows);
  ui.solvedMeans = el('p', { class: 'note' });
  ui.downloadButton = el('button', { type: 'button', onclick: downloadResults }, 'Download JSON Lines');

  return el('div', { class: 'page testsets-page' },
    el('h1', {}, 'Test sets'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-side' }, el('section', { class: 'panel' }, ui.form, ui.error, ui.message)),
      el('div', { class: 'column-main' },
        el('section', { class: 'panel', 'aria-labelledby': 'ts-results-heading' },
          el('h2', { id: 'ts-results-heading' }, 'Results'),
          ui.progress, ui.totals,
          el('div', { class: 'buttons' }, ui.downloadButton),
          el('div', { class: 'table-scroll' }, ui.table),
          ui.solvedMeans))));
}

function changeGame(game) {
  const spec = GAMES[game];
  const firstSet = state.sets.find((set) => set.game === game);
  Object.assign(state.form, {
    game, algo: null, set: firstSet?.id ?? '', from: spec.upload ? state.form.from : 'bundled',
  });
  state.file = null;
  state.ui.fileInput.value = '';
  renderForm();
  render();
}

function readForm() {
  const ui = state.ui;
  Object.assign(state.form, {
    from: ui.fromFile.checked ? 'file' : 'bundled',
    set: ui.set.value,
    algo: ui.algo.value || null,
    first: ui.first.value.trim(),
  });
  try { if (ui.form) state.settings[state.form.game] = ui.form.values(); } catch { /* shown at Run */ }
  render();
}

async function readFile() {
  const file = state.ui.fileInput.files[0];
  if (!file) { state.file = null; render(); return; }
  try {
    state.file = { name: file.name, text: await file.text() };
    state.form.from = 'file';
    state.error = null;
  } catch (error) {
    state.file = null;
    state.error = { message: `Cannot read ${file.name}: ${error.message}` };
  }
  renderForm();
  render();
}

/** The form's options for the chosen game (after a game change or the sets' arrival). */
function renderForm() {
  const ui = state.ui;
  if (!ui) return;
  const form = state.form;
  const spec = GAMES[form.game];
  const sets = state.sets.filter((set) => set.game === form.game);
  if (!sets.some((set) => set.id === form.set) && sets.length > 0) form.set = sets[0].id;
  ui.game.value = form.game;
  ui.set.replaceChildren(...sets.map((set) => el('option', { value: set.id }, `${set.name} (${set.items})`)));
  ui.set.value = form.set;
  renderSolverAndSettings(spec);
  ui.first.value = form.first;
  ui.fileInput.accept = spec.accept ?? '';
}

/**
 * The game's solvers (its job's choices; the job's default first chosen) and its per-item
 * limit and threads, as a form built from the job's schema.
 */
function renderSolverAndSettings(spec) {
  const ui = state.ui;
  const form = state.form;
  const job = state.jobs[form.game];
  if (!job) {
    ui.algo.replaceChildren();
    ui.settings.replaceChildren();
    ui.form = null;
    return;
  }
  const choices = fieldChoices(job, spec.solver);
  const solver = describeField(job, spec.solver);
  const preferred = Array.isArray(solver.default) ? solver.default[0] : solver.default;
  if (!choices.some((choice) => choice.value === form.algo)) form.algo = preferred ?? choices[0]?.value ?? null;
  ui.algo.replaceChildren(...choiceSelect(choices, { value: form.algo }).children);
  ui.algo.value = form.algo ?? '';
  if (ui.form?.job !== job.name) {
    ui.form = buildForm(job, {
      // The page names the item the limit is per (the schema says "per item").
      idPrefix: 'ts-', only: [spec.limit.field, 'threads'], labels: spec.limit.label ? { [spec.limit.field]: spec.limit.label } : {},
      values: state.settings[form.game], onChange: readForm,
    });
    ui.settings.replaceChildren(ui.form.element);
  }
}

// ---------------------------------------------------------------------------------------------
// Running

/** The job request from the form (with the set's text where the job takes text). */
async function jobRequest() {
  const form = state.form;
  const spec = GAMES[form.game];
  if (!state.ui?.form || !form.algo) throw new Error('The solvers are still loading.');
  const settings = state.ui.form.request();
  const first = form.first === '' ? null : Number(form.first);
  if (first !== null && !(Number.isInteger(first) && first >= 1)) throw new Error('First N items: give a whole number from 1, or leave it empty for all.');
  const fromFile = form.from === 'file';
  if (fromFile && !state.file) throw new Error('Choose a file to upload, or pick a bundled set.');
  if (!fromFile && !form.set) throw new Error('Pick a bundled set.');
  let text = null;
  let source = null;
  if (fromFile) {
    ({ text, name: source } = state.file);
  } else if (spec.takesText) {
    // Jobs that take the items as text get the bundled set's text from the server.
    ({ text } = await api(`sets/${encodeURIComponent(form.game)}/${encodeURIComponent(form.set)}`));
    source = form.set;
  }
  const request = spec.request({
    set: form.set, file: fromFile ? state.file : null, text, source, algo: form.algo, first, settings,
  });
  const setInfo = fromFile ? null : state.sets.find((set) => set.game === form.game && set.id === form.set);
  const total = setInfo ? Math.min(setInfo.items, first ?? Infinity) : first;
  return { request, run: { game: form.game, first, total, stopAtFirst: first !== null && !spec.firstInJob, text } };
}

async function run() {
  if (state.running) return;
  readForm();
  let prepared;
  try {
    prepared = await jobRequest();
  } catch (error) {
    state.error = { message: error.message };
    render();
    return;
  }
  const controller = new AbortController();
  Object.assign(state, {
    running: true, controller, run: prepared.run, results: [], progress: null, search: null,
    reachedFirst: false, message: 'Running…', error: null,
  });
  if (state.ui) state.ui.rows.replaceChildren();
  render();
  try {
    const end = await streamJob(prepared.request, onEvent, controller.signal);
    state.message = endMessage(end.reason);
  } catch (error) {
    state.error = describeError(error);
    state.message = '';
  } finally {
    state.running = false;
    state.controller = null;
    render();
  }
}

function endMessage(reason) {
  const n = state.results.length;
  const items = `${n} item${n === 1 ? '' : 's'}`;
  if (state.reachedFirst || reason === 'done') return `Finished: ${items}.`;
  if (reason === 'stopped') return `Stopped after ${items}; the table keeps them.`;
  if (reason === 'time_cap') return `Stopped at the server's time cap after ${items}.`;
  if (reason === 'error') return `Ended by an error after ${items}.`;
  return `Ended (${reason}) after ${items}.`;
}

function onEvent(name, data, text) {
  // Events of the same network chunk can follow an abort (Stop, or the first N reached).
  if (state.controller?.signal.aborted) return;
  if (name === 'result') {
    state.results.push({ record: data, text });
    appendRow(state.results.length - 1);
    const first = state.run?.first;
    if (state.run?.stopAtFirst && state.results.length >= first && !state.reachedFirst) {
      state.reachedFirst = true;
      state.controller?.abort();
    }
  } else if (name === 'progress') {
    if (data && 'done' in data && 'total' in data) state.progress = data;
    else state.search = data;
  } else if (name === 'error') {
    state.error = describeError(data);
  }
  render();
}

/**
 * The error to show: the server's message and, for a parse error, the line of the text it names
 * with a caret under the column (from the error's `line` and `column`, or else from the
 * message's "line L, column C" or "source:L[:C]: ").
 */
function describeError(error) {
  const message = error?.error ?? error?.message ?? String(error);
  let line = error?.line ?? null;
  let column = error?.column ?? null;
  if (!line) {
    const named = /line (\d+), column (\d+)/.exec(message) ?? /:(\d+)(?::(\d+))?: /.exec(message);
    if (named) [line, column] = [Number(named[1]), named[2] ? Number(named[2]) : null];
  }
  const text = state.run?.text;
  const lineText = line && text ? text.split(/\r?\n/)[line - 1] : undefined;
  if (lineText === undefined) return { message, excerpt: null };
  const gutter = `line ${line}: `;
  const caret = `${' '.repeat(gutter.length + Math.max(0, (column ?? 1) - 1))}^`;
  return { message, excerpt: `${gutter}${lineText}\n${caret}` };
}

function cancel() {
  state.controller?.abort();
}

/** Every `result` record as the server sent it, one per line. */
function downloadResults() {
  const game = state.run?.game ?? 'results';
  downloadText(`testset-${game}.jsonl`, state.results.map((result) => `${result.text}\n`).join(''));
}

// ---------------------------------------------------------------------------------------------
// Rendering

function formatTime(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds >= 10) return seconds.toFixed(1);
  if (seconds >= 0.01) return seconds.toFixed(3);
  return seconds === 0 ? '0' : seconds.toPrecision(2);
}

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function rowOf(result) {
  return GAMES[state.run.game].row(result.record);
}

function appendRow(index) {
  const ui = state.ui;
  if (!ui || !state.run) return;
  const row = rowOf(state.results[index]);
  const hasScore = GAMES[state.run.game].hasScore;
  ui.rows.append(el('tr', {},
    el('th', { scope: 'row' }, row.item),
    el('td', { class: row.solved ? 'yes' : 'no' }, row.solved ? 'yes' : 'no'),
    // A game without a score (Sokoban, Sudoku) has no Score column.
    el('td', { class: 'num', hidden: !hasScore }, row.score !== null ? String(row.score) : '—'),
    el('td', { class: 'num' }, row.moves === null || row.moves === undefined ? '—' : String(row.moves)),
    el('td', { class: 'num' }, formatTime(row.time))));
}

function renderTotals() {
  const ui = state.ui;
  if (!state.run) {
    ui.totals.replaceChildren(el('div', {}, el('dt', {}, 'Items'), el('dd', {}, 'no run yet')));
    return;
  }
  const rows = state.results.map(rowOf);
  const times = rows.map((row) => row.time).filter((t) => typeof t === 'number');
  const solved = rows.filter((row) => row.solved).length;
  const entries = [
    ['Items', String(rows.length)],
    ['Solved', `${solved} of ${rows.length}`],
    ['Total time', times.length ? `${formatTime(times.reduce((a, b) => a + b, 0))} s` : '—'],
    ['Median time', times.length ? `${formatTime(median(times))} s` : '—'],
  ];
  if (GAMES[state.run.game].hasScore) entries.push(['Total score', String(rows.reduce((a, row) => a + (row.score ?? 0), 0))]);
  ui.totals.replaceChildren(...entries.map(([term, value]) => el('div', {}, el('dt', {}, term), el('dd', {}, value))));
}

function progressText() {
  if (!state.run) return 'No run yet.';
  const parts = [];
  const progress = state.progress;
  const total = state.run.total ?? progress?.total;
  const done = state.results.length;
  parts.push(`${done}${total ? ` of ${total}` : ''} items done`);
  if (progress) parts.push(`${Number(progress.elapsed_s).toFixed(1)} s elapsed`);
  const search = state.search;
  if (state.running && search) {
    const item = search.board ?? search.puzzle ?? null;
    const bits = [];
    if (search.best_score !== undefined && search.best_score !== null) bits.push(`best score ${search.best_score}`);
    if (search.iterations) bits.push(`${Number(search.iterations).toLocaleString()} iterations`);
    if (search.simulations) bits.push(`${Number(search.simulations).toLocaleString()} simulations`);
    if (search.best_filled !== undefined) bits.push(`deepest fill ${search.best_filled}/${search.cells}`);
    if (search.elapsed_s !== undefined) bits.push(`${Number(search.elapsed_s).toFixed(1)} s`);
    if (bits.length) parts.push(`now${item ? ` item ${item}` : ''}: ${bits.join(', ')}`);
  }
  return `${parts.join(' · ')}${state.running ? ' …' : ''}`;
}

function render() {
  const ui = state.ui;
  if (!ui) return;
  const form = state.form;
  const spec = GAMES[form.game];
  const locked = state.running;
  ui.fromBundled.checked = form.from !== 'file';
  ui.fromFile.checked = form.from === 'file';
  for (const control of [ui.game, ui.fromBundled, ui.algo, ui.first]) control.disabled = locked;
  for (const setting of ui.form?.fields ?? []) ui.form.control(setting.name).disabled = locked;
  ui.fromFile.disabled = locked || !spec.upload;
  ui.fileInput.disabled = locked || !spec.upload;
  ui.set.disabled = locked || form.from === 'file';
  ui.fileNote.textContent = !spec.upload
    ? `${spec.label} runs on its bundled levels only.`
    : state.file ? `${state.file.name}: ${state.file.text.length.toLocaleString()} characters` : '';
  ui.runButton.disabled = state.running;
  ui.cancelButton.disabled = !state.running;
  ui.downloadButton.disabled = state.results.length === 0;
  renderError();
  ui.message.textContent = state.message;
  ui.progress.textContent = progressText();
  renderTotals();
  const runGame = state.run ? GAMES[state.run.game] : spec;
  ui.solvedMeans.textContent = runGame.solvedMeans ?? '';
  ui.scoreHeader.hidden = !runGame.hasScore;
  if (state.run && ui.rows.children.length !== state.results.length) {
    ui.rows.replaceChildren();
    state.results.forEach((_, index) => appendRow(index));
  }
}

function renderError() {
  const ui = state.ui;
  const error = state.error;
  if (!error) { ui.error.replaceChildren(); return; }
  ui.error.replaceChildren(el('p', {}, error.message));
  if (error.excerpt) ui.error.append(el('pre', { class: 'error-excerpt' }, error.excerpt));
}
