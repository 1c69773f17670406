// The experiments page: one of the four `puzzle experiment …` runs (sokoban-gen, sudoku,
// samegame, bait) as a job with its main settings (the CLI's names, small defaults for a quick
// look), Run and Stop, live progress and rows from the `progress`/`result` events, and at the
// end the Markdown report and every plot of the `summary` event, each downloadable. The SVG
// plots are shown as images (data URLs), never put into the page's DOM.

import { streamJob } from '../api.js';
import { replaceRoute } from '../route.js';
import { el, field } from '../ui.js';
import { renderMarkdown } from '../markdown.js';

const fixed = (digits) => (value) => (value === null || value === undefined ? '—' : Number(value).toFixed(digits));
const whole = (value) => (value === null || value === undefined ? '—' : Math.round(Number(value)).toLocaleString('en'));

/**
 * Per experiment: the job, its settings (request name, CLI flag, label, control kind, quick
 * default; an empty value is left to the server's default, the CLI's) and the live table's
 * columns from a `result` record.
 */
const EXPERIMENTS = {
  'sokoban-gen': {
    job: 'sokoban_gen_experiment',
    label: 'Sokoban generation',
    description: 'The generation thesis’s Tables 3.1–3.8: each column a generator configuration, run once per seed on a 5×5 board, beside the thesis’s figures.',
    fields: [
      { name: 'tables', flag: '--tables', label: 'Tables', kind: 'list', value: '3.1', help: 'Comma-separated, 3.1 to 3.8; empty: all eight.' },
      { name: 'seeds', flag: '--seeds', label: 'Seeds per column', kind: 'int', value: '2', min: 1, max: 1000, help: 'The thesis: 10.' },
      { name: 'time_limit', flag: '--time-limit', label: 'Time per run (s)', kind: 'number', value: '0.5', min: 0.01, help: 'The thesis: 30 s.' },
      { name: 'seed', flag: '--seed', label: 'First seed', kind: 'int', value: '1', min: 0 },
    ],
    columns: [
      { label: 'Table', value: (r) => r.table },
      { label: 'Column', value: (r) => r.column },
      { label: 'Runs', value: (r) => String(r.runs), num: true },
      { label: 'Iterations/s', value: (r) => whole(r.iterations_per_s), num: true },
      { label: 'Thesis it/s', value: (r) => whole(r.thesis_iterations_per_30s / 30), num: true },
      { label: 'Best score', value: (r) => fixed(4)(r.best_score), num: true },
      { label: 'Thesis score', value: (r) => fixed(4)(r.thesis_best_score), num: true },
      { label: 'Time to best (s)', value: (r) => fixed(2)(r.time_to_best_s), num: true },
    ],
  },
  sudoku: {
    job: 'sudoku_experiment',
    label: 'Sudoku MCTS',
    description: 'The Czech thesis’s MCTS test grid (playouts × selection × α-AMAF on an easy, a medium and a hard puzzle) and the success rate on magictour top95 against the simulation budget.',
    fields: [
      { name: 'puzzles', flag: '--puzzles', label: 'Grid puzzles', kind: 'list', value: 'easy', help: 'Comma-separated: easy, medium, hard; empty: all three.' },
      { name: 'runs', flag: '--runs', label: 'Runs per configuration', kind: 'int', value: '1', min: 1, max: 1000, help: 'The thesis: 10.' },
      { name: 'easy_limit', flag: '--easy-limit', label: 'Easy puzzle: simulations', kind: 'int', value: '10000', min: 1 },
      { name: 'medium_limit', flag: '--medium-limit', label: 'Medium puzzle: simulations', kind: 'int', value: '50000', min: 1 },
      { name: 'hard_limit', flag: '--hard-limit', label: 'Hard puzzle: simulations', kind: 'int', value: '100000', min: 1 },
      { name: 'top95', flag: '--top95', label: 'top95 puzzles', kind: 'int', value: '5', min: 0, max: 95, help: '0 to 95 (0: no top95 table).' },
      { name: 'top95_budget', flag: '--top95-budget', label: 'top95 largest budget (simulations)', kind: 'int', value: '10000', min: 1 },
      { name: 'seed', flag: '--seed', label: 'Seed', kind: 'int', value: '1', min: 0 },
      { name: 'amaf_on_hard', flag: '--amaf-on-hard', label: 'Also α-AMAF on the hard puzzle', kind: 'check', value: false },
    ],
    columns: [
      { label: 'Table', value: (r) => r.table },
      { label: 'Puzzle', value: (r) => r.puzzle ?? `${r.puzzles} of top95` },
      { label: 'Configuration', value: (r) => r.configuration },
      { label: 'Simulations', value: (r) => whole(r.limit ?? r.budgets?.at(-1)), num: true },
      { label: 'Solved', value: (r) => (r.table === 'top95' ? `${r.solved_within?.at(-1) ?? 0}/${r.puzzles}` : `${r.solved}/${r.runs}`), num: true },
      { label: 'Mean simulations', value: (r) => whole(r.mean_simulations), num: true },
      { label: 'Mean time (s)', value: (r) => fixed(3)(r.mean_time_s), num: true },
    ],
  },
  samegame: {
    job: 'samegame_experiment',
    label: 'SameGame playouts × formulas',
    description: 'The Czech thesis’s comparison (§3.4): SP-MCTS with each playout policy and selection formula on the standard boards, totals beside the thesis’s.',
    fields: [
      { name: 'count', flag: '--count', label: 'Boards (first N)', kind: 'int', value: '3', min: 1, max: 20, help: 'Of the 20 standard boards; empty: all.' },
      { name: 'playouts', flag: '--playouts', label: 'Playouts', kind: 'list', value: 'tabu,pseudo-tabu,double-tabu', help: 'Comma-separated playout policies.' },
      { name: 'formulas', flag: '--formulas', label: 'Selection formulas', kind: 'list', value: 'ucb-tuned,uctk0.1,uctk0.2,uctk0.4', help: 'ucb-tuned, uctk<C> (UCB1), spmcts.' },
      { name: 'iterations', flag: '--iterations', label: 'Simulations per run', kind: 'int', value: '', min: 1, help: 'Empty with no time: 2,000.' },
      { name: 'time_limit', flag: '--time-limit', label: 'Time per run (s, optional)', kind: 'number', value: '', min: 0.01 },
      { name: 'threads', flag: '--threads', label: 'Threads', kind: 'select', value: '1', choices: ['1', '2'] },
      { name: 'seed', flag: '--seed', label: 'Seed', kind: 'int', value: '1', min: 0 },
    ],
    columns: [
      { label: 'Playout', value: (r) => r.playout },
      { label: 'Formula', value: (r) => r.formula },
      { label: 'Total score', value: (r) => whole(r.total), num: true },
      { label: 'Thesis total (20 boards)', value: (r) => whole(r.paper), num: true },
    ],
  },
  bait: {
    job: 'bait_experiment',
    label: 'Bait agents × levels',
    description: 'Every chosen agent on every chosen level of GVGAI’s Bait, with a CPU budget per move (the paper’s comparison).',
    fields: [
      { name: 'agents', flag: '--agents', label: 'Agents', kind: 'list', value: 'astar,astar-offline,dfs', help: 'dfs, dls, astar, astar-offline, mcts, mcts-plus; empty: all (dls and the MCTS agents take minutes).' },
      { name: 'levels', flag: '--levels', label: 'Levels', kind: 'numbers', value: '0,1,2', help: 'Comma-separated, 0 to 4; empty: all five.' },
      { name: 'seeds', flag: '--seeds', label: 'Games per level (random agents)', kind: 'int', value: '1', min: 1, max: 1000 },
      { name: 'budget_ms', flag: '--budget-ms', label: 'Budget per move (ms)', kind: 'number', value: '40', min: 1 },
      { name: 'seed', flag: '--seed', label: 'First seed', kind: 'int', value: '0', min: 0 },
    ],
    runRows: true,
    columns: [
      { label: 'Level', value: (r) => String(r.level), num: true },
      { label: 'Agent', value: (r) => r.agent },
      { label: 'Seed', value: (r) => String(r.seed), num: true },
      { label: 'Result', value: (r) => (r.win ? 'won' : 'lost'), className: (r) => (r.win ? 'yes' : 'no') },
      { label: 'Score', value: (r) => String(r.score), num: true },
      { label: 'Ticks', value: (r) => String(r.ticks), num: true },
      { label: 'Longest move (ms)', value: (r) => fixed(1)(r.max_move_ms), num: true },
    ],
  },
};

/** The page's only mutable state; a running job keeps going while another page is shown. */
const state = {
  experiment: 'sokoban-gen',
  values: Object.fromEntries(Object.entries(EXPERIMENTS).map(([id, experiment]) => [
    id, Object.fromEntries(experiment.fields.map((option) => [option.name, option.value]))])),
  running: false,
  controller: null,
  run: null,        // {experiment, command, startedAt, finishedAt} of the current or last run
  rows: [],         // `result` records
  progress: null,   // the last `progress` record ({done, total, solved, label, elapsed_s})
  summary: null,    // {report, plots} of the `summary` event
  end: null,        // the `end` event's data
  error: null,
  ticker: null,
  ui: null,
};

export function mount(main, params) {
  const asked = params?.get('experiment');
  if (asked && EXPERIMENTS[asked] && !state.running) state.experiment = asked;
  main.append(buildPage());
  renderFields();
  render();
  return () => { state.ui = null; };
}

function buildPage() {
  const ui = {};
  state.ui = ui;
  ui.experimentSelect = el('select', { id: 'exp-experiment', onchange: chooseExperiment, 'aria-describedby': 'exp-description' },
    Object.entries(EXPERIMENTS).map(([id, experiment]) => el('option', { value: id }, `${id} — ${experiment.label}`)));
  ui.description = el('p', { class: 'help', id: 'exp-description' });
  ui.fields = el('div', { class: 'option-grid' });
  ui.settings = el('fieldset', { class: 'exp-settings' }, el('legend', {}, 'Settings'), ui.fields);
  ui.command = el('code', { class: 'exp-command', id: 'exp-command' });
  ui.runButton = el('button', { type: 'submit' }, 'Run');
  ui.stopButton = el('button', { type: 'button', onclick: stop }, 'Stop');
  ui.form = el('form', {
    class: 'exp-form', 'aria-labelledby': 'exp-form-heading',
    onsubmit: (event) => { event.preventDefault(); start(); },
    oninput: readForm, onchange: readForm,
  },
  el('h2', { id: 'exp-form-heading' }, 'Run an experiment'),
  field('Experiment', ui.experimentSelect),
  ui.description,
  ui.settings,
  el('p', { class: 'note' }, 'The same as: ', ui.command),
  el('div', { class: 'buttons' }, ui.runButton, ui.stopButton));
  ui.error = el('p', { class: 'error', role: 'alert' });

  ui.status = el('p', { class: 'stats', role: 'status' });
  ui.rowsHead = el('thead');
  ui.rowsBody = el('tbody');
  ui.rowsTable = el('table', { class: 'results', 'aria-label': 'Rows' }, ui.rowsHead, ui.rowsBody);
  ui.rowsHolder = el('div', { class: 'table-scroll exp-rows' }, ui.rowsTable);
  ui.plots = el('div', { class: 'exp-plots' });
  ui.plotsNote = el('p', { class: 'note' });
  ui.reportLinks = el('div', { class: 'buttons' });
  ui.report = el('div', { class: 'exp-report' });
  ui.reportNote = el('p', { class: 'note' });

  return el('div', { class: 'page experiments-page' },
    el('h1', {}, 'Experiments'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-side' }, el('section', { class: 'panel' }, ui.form, ui.error)),
      el('div', { class: 'column-main' },
        el('section', { class: 'panel', 'aria-labelledby': 'exp-progress-heading' },
          el('h2', { id: 'exp-progress-heading' }, 'Progress'), ui.status, ui.rowsHolder),
        el('section', { class: 'panel', 'aria-labelledby': 'exp-plots-heading' },
          el('h2', { id: 'exp-plots-heading' }, 'Plots'), ui.plotsNote, ui.plots),
        el('section', { class: 'panel', 'aria-labelledby': 'exp-report-heading' },
          el('h2', { id: 'exp-report-heading' }, 'Report'), ui.reportNote, ui.reportLinks, ui.report))));
}

function controlId(option) {
  return `exp-${state.experiment}-${option.name.replace(/_/g, '-')}`;
}

/** The settings of the chosen experiment, from state.values. */
function renderFields() {
  const ui = state.ui;
  const experiment = EXPERIMENTS[state.experiment];
  const values = state.values[state.experiment];
  ui.experimentSelect.value = state.experiment;
  ui.description.textContent = experiment.description;
  ui.controls = {};
  ui.fields.replaceChildren(...experiment.fields.map((option) => {
    const id = controlId(option);
    const value = values[option.name];
    const help = option.help ? el('small', { class: 'help', id: `${id}-help` }, option.help) : null;
    let control;
    if (option.kind === 'check') {
      control = el('input', { id, type: 'checkbox', checked: Boolean(value) });
      ui.controls[option.name] = control;
      return el('div', { class: 'check' }, control, el('label', { for: id }, option.label));
    }
    if (option.kind === 'select') {
      control = el('select', { id }, option.choices.map((choice) => el('option', { value: choice, selected: choice === value }, choice)));
    } else {
      const numeric = option.kind === 'int' || option.kind === 'number';
      control = el('input', {
        id, type: numeric ? 'number' : 'text', value: String(value), min: option.min, max: option.max,
        step: option.kind === 'int' ? 1 : numeric ? 'any' : undefined, 'aria-describedby': help ? help.id : undefined,
        spellcheck: numeric ? undefined : 'false',
      });
    }
    ui.controls[option.name] = control;
    const wrapper = field(option.label, control);
    if (help) wrapper.append(help);
    if (option.kind === 'text' || option.kind === 'list' || option.kind === 'numbers') wrapper.classList.add('wide');
    return wrapper;
  }));
}

function chooseExperiment() {
  state.experiment = state.ui.experimentSelect.value;
  replaceRoute('experiments', { experiment: state.experiment });
  renderFields();
  render();
}

function readForm(event) {
  if (event?.target === state.ui.experimentSelect) return;
  const values = state.values[state.experiment];
  for (const option of EXPERIMENTS[state.experiment].fields) {
    const control = state.ui.controls[option.name];
    values[option.name] = option.kind === 'check' ? control.checked : control.value.trim();
  }
  renderCommand();
}

function splitList(text) {
  return text.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** The job request from the form; empty fields are left to the server's defaults. */
function jobRequest(id) {
  const experiment = EXPERIMENTS[id];
  const values = state.values[id];
  const request = { job: experiment.job };
  for (const option of experiment.fields) {
    const value = values[option.name];
    if (option.kind === 'check') { request[option.name] = Boolean(value); continue; }
    if (value === '') continue;
    if (option.kind === 'list') request[option.name] = splitList(value);
    else if (option.kind === 'numbers') request[option.name] = splitList(value).map(Number);
    else if (option.kind === 'int' || option.kind === 'number' || option.kind === 'select') request[option.name] = Number(value);
    else request[option.name] = value;
  }
  return request;
}

/** The command line that runs the same experiment. */
function commandLine(id) {
  const parts = ['puzzle', 'experiment', id];
  const values = state.values[id];
  for (const option of EXPERIMENTS[id].fields) {
    const value = values[option.name];
    if (option.kind === 'check') { if (value) parts.push(option.flag); continue; }
    if (value === '') continue;
    const text = option.kind === 'list' || option.kind === 'numbers' ? splitList(value).join(',') : value;
    parts.push(option.flag, /^[\w.,<>+-]+$/.test(text) ? text : `'${text}'`);
  }
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Running the job

async function start() {
  if (state.running) return;
  readForm();
  const id = state.experiment;
  const controller = new AbortController();
  Object.assign(state, {
    running: true, controller, rows: [], progress: null, summary: null, end: null, error: null,
    run: { experiment: id, command: commandLine(id), startedAt: performance.now(), finishedAt: null },
  });
  state.ticker = setInterval(render, 500);
  render();
  try {
    state.end = await streamJob(jobRequest(id), onEvent, controller.signal);
  } catch (error) {
    state.error = error;
  } finally {
    clearInterval(state.ticker);
    state.ticker = null;
    state.running = false;
    state.controller = null;
    state.run.finishedAt = performance.now();
    render();
  }
}

function onEvent(name, data) {
  if (name === 'progress') state.progress = data;
  else if (name === 'result') {
    // Per-run records (they carry `item`, for sharded runs and merges) feed the table only where
    // the table lists runs (Bait's games); elsewhere it lists the aggregate rows.
    if (!('item' in data) || EXPERIMENTS[state.experiment].runRows) state.rows.push(data);
    else return;
  }
  else if (name === 'summary') state.summary = data;
  else if (name === 'error') state.error = new Error(data?.error ?? String(data));
  else return;
  render();
}

function stop() {
  state.controller?.abort();
}

// ---------------------------------------------------------------------------------------------
// Rendering

function render() {
  const ui = state.ui;
  if (!ui) return;
  ui.runButton.disabled = state.running;
  ui.stopButton.disabled = !state.running;
  ui.settings.disabled = state.running;
  ui.experimentSelect.disabled = state.running;
  ui.error.textContent = state.error ? state.error.message : '';
  renderCommand();
  ui.status.textContent = statusLine();
  renderRows();
  renderSummary();
}

function renderCommand() {
  if (state.ui) state.ui.command.textContent = commandLine(state.experiment);
}

function elapsedSeconds() {
  const run = state.run;
  return ((run.finishedAt ?? performance.now()) - run.startedAt) / 1000;
}

function statusLine() {
  const run = state.run;
  if (!run) return 'No run yet: choose an experiment and its settings, then Run.';
  const rows = `${state.rows.length} row${state.rows.length === 1 ? '' : 's'}`;
  const progress = state.progress;
  const runs = progress && progress.total !== undefined
    ? `${progress.done} of ${progress.total} runs done (${progress.solved} solved)${progress.label ? ` · ${progress.label}` : ''} · `
    : '';
  const time = `${elapsedSeconds().toFixed(1)} s`;
  if (state.running) return `Running ${run.experiment}: ${runs}${rows} · ${time}`;
  const plots = state.summary?.plots?.length ?? 0;
  const reason = state.end?.reason ?? (state.error ? 'error' : 'closed');
  return `Finished ${run.experiment} (${reason}) in ${time}: ${runs}${rows}, ${plots} plot${plots === 1 ? '' : 's'}.`;
}

function renderRows() {
  const ui = state.ui;
  const columns = EXPERIMENTS[state.run?.experiment ?? state.experiment].columns;
  const experimentKey = state.run?.experiment ?? state.experiment;
  if (ui.rowsTable.dataset.experiment !== experimentKey) {
    ui.rowsTable.dataset.experiment = experimentKey;
    ui.rowsHead.replaceChildren(el('tr', {}, columns.map((column) => el('th', { scope: 'col', class: column.num ? 'num' : undefined }, column.label))));
    ui.rowsBody.replaceChildren();
  }
  if (ui.rowsBody.children.length > state.rows.length) ui.rowsBody.replaceChildren();
  for (const record of state.rows.slice(ui.rowsBody.children.length)) {
    ui.rowsBody.append(el('tr', {}, columns.map((column) => el('td', {
      class: [column.num ? 'num' : '', column.className ? column.className(record) : ''].join(' ').trim() || undefined,
    }, String(column.value(record) ?? '—')))));
  }
  ui.rowsHolder.hidden = state.rows.length === 0;
}

function renderSummary() {
  const ui = state.ui;
  const summary = state.summary;
  const shown = ui.report.dataset.shown === 'yes';
  if (!summary) {
    if (shown || ui.report.dataset.shown === undefined) {
      ui.report.dataset.shown = 'no';
      ui.plots.replaceChildren();
      ui.report.replaceChildren();
      ui.reportLinks.replaceChildren();
    }
    const waiting = state.running ? 'They come at the end of the run.' : 'No report yet.';
    ui.plotsNote.textContent = waiting;
    ui.reportNote.textContent = waiting;
    return;
  }
  if (shown) return;
  ui.report.dataset.shown = 'yes';
  const id = state.run.experiment;
  const plots = summary.plots ?? [];
  ui.plotsNote.textContent = plots.length === 0 ? 'This run made no plots.' : '';
  ui.plots.replaceChildren(...plots.map(plotFigure));
  ui.reportNote.textContent = '';
  ui.reportLinks.replaceChildren(
    el('a', { class: 'download-link', href: dataUrl('text/markdown', summary.report ?? ''), download: `${id}-report.md` }, 'Download report (Markdown)'));
  ui.report.replaceChildren(el('p', { class: 'note' }, 'Command: ', el('code', {}, state.run.command)),
    renderMarkdown(summary.report ?? '', { headingOffset: 2, idPrefix: 'exp-report' }));
}

function plotFigure(plot, index) {
  const captionId = `exp-plot-${index}`;
  return el('figure', { class: 'exp-plot' },
    el('img', { src: dataUrl('image/svg+xml', plot.svg), alt: plot.title, 'aria-describedby': captionId }),
    el('figcaption', { id: captionId }, plot.title, ' · ',
      el('a', { class: 'download-link', href: dataUrl('image/svg+xml', plot.svg), download: plot.name }, `Download ${plot.name}`)));
}

function dataUrl(type, text) {
  return `data:${type};charset=utf-8,${encodeURIComponent(text)}`;
}
