// The experiments page: one of the four `puzzle experiment …` runs (sokoban-gen, sudoku,
// samegame, bait) as a job with its settings (a form built from the job's schema by forms.js,
// starting from small values for a quick look), Run and Stop, live progress and rows from the `progress`/`result` events, and at the
// end the Markdown report and every plot of the `summary` event, each downloadable. The SVG
// plots are shown as images (data URLs), never put into the page's DOM. Above them, the papers'
// saved reports (docs/results, at the papers' own budgets) open without running anything.

import { api, streamJob } from '../api.js';
import { replaceRoute } from '../route.js';
import { el, field } from '../ui.js';
import { buildForm, jobInfo } from '../forms.js';
import { renderMarkdown } from '../markdown.js';

const fixed = (digits) => (value) => (value === null || value === undefined ? '—' : Number(value).toFixed(digits));
const whole = (value) => (value === null || value === undefined ? '—' : Math.round(Number(value)).toLocaleString('en'));

/**
 * Per experiment: the job, the settings it starts from (`quick`: small values for a quick look,
 * where the job's defaults are the thesis's long runs; typed as in the request), the job's
 * fields the page leaves out, and the live table's columns from a `result` record. The
 * settings themselves (labels, help, defaults, ranges, choices) come from the job's schema.
 */
const EXPERIMENTS = {
  'sokoban-gen': {
    job: 'sokoban_gen_experiment',
    label: 'Sokoban generation',
    description: 'The generation thesis’s Tables 3.1–3.8: each column a generator configuration, run once per seed on a 5×5 board, beside the thesis’s figures.',
    quick: { tables: ['3.1'], seeds: 2 },
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
    quick: { puzzles: ['easy'], runs: 1, top95: 5, top95_budget: 10000 },
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
    quick: { count: 3 },
    leftOut: ['boards', 'source'],
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
    quick: { agents: ['astar', 'astar-offline', 'dfs'], levels: [0, 1, 2], seeds: 1 },
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
  jobs: {},         // {name, title, schema} per experiment id (GET /api/jobs)
  values: Object.fromEntries(Object.entries(EXPERIMENTS).map(([id, experiment]) => [id, { ...experiment.quick }])),
  running: false,
  controller: null,
  run: null,        // {experiment, command, startedAt, finishedAt} of the current or last run
  rows: [],         // `result` records
  progress: null,   // the last `progress` record ({done, total, solved, label, elapsed_s})
  summary: null,    // {report, plots} of the `summary` event
  end: null,        // the `end` event's data
  error: null,
  ticker: null,
  saved: { list: null, shown: null, error: null }, // the saved reports (GET /api/results)
  ui: null,
};

export function mount(main, params) {
  const asked = params?.get('experiment');
  if (asked && EXPERIMENTS[asked] && !state.running) state.experiment = asked;
  main.append(buildPage());
  renderFields();
  loadSaved();
  render();
  return () => { state.ui = null; };
}

function buildPage() {
  const ui = {};
  state.ui = ui;
  ui.experimentSelect = el('select', { id: 'exp-experiment', onchange: chooseExperiment, 'aria-describedby': 'exp-description' },
    Object.entries(EXPERIMENTS).map(([id, experiment]) => el('option', { value: id }, `${id} — ${experiment.label}`)));
  ui.description = el('p', { class: 'help', id: 'exp-description' });
  ui.fields = el('div', { class: 'exp-fields' });
  ui.settings = el('fieldset', { class: 'exp-settings' }, el('legend', {}, 'Settings'), ui.fields);
  ui.command = el('code', { class: 'exp-command', id: 'exp-command' });
  ui.runButton = el('button', { type: 'submit' }, 'Run');
  ui.stopButton = el('button', { type: 'button', onclick: stop }, 'Stop');
  ui.form = el('form', {
    class: 'exp-form', 'aria-labelledby': 'exp-form-heading',
    onsubmit: (event) => { event.preventDefault(); start(); },
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

  ui.savedButtons = el('div', { class: 'buttons', role: 'group', 'aria-label': 'Saved reports' });
  ui.savedNote = el('p', { class: 'note' }, 'Loading the saved reports…');
  ui.savedReport = el('div', { class: 'exp-report' });

  return el('div', { class: 'page experiments-page' },
    el('h1', {}, 'Experiments'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-side' }, el('section', { class: 'panel' }, ui.form, ui.error)),
      el('div', { class: 'column-main' },
        el('section', { class: 'panel', 'aria-labelledby': 'exp-saved-heading' },
          el('h2', { id: 'exp-saved-heading' }, 'Saved results'),
          el('p', { class: 'help' }, 'The five papers\u2019 experiments at their own budgets (hours of CPU each), as docs/RESULTS.md reports them: open one to read it with its plots.'),
          ui.savedButtons, ui.savedNote, ui.savedReport),
        el('section', { class: 'panel', 'aria-labelledby': 'exp-progress-heading' },
          el('h2', { id: 'exp-progress-heading' }, 'Progress'), ui.status, ui.rowsHolder),
        el('section', { class: 'panel', 'aria-labelledby': 'exp-plots-heading' },
          el('h2', { id: 'exp-plots-heading' }, 'Plots'), ui.plotsNote, ui.plots),
        el('section', { class: 'panel', 'aria-labelledby': 'exp-report-heading' },
          el('h2', { id: 'exp-report-heading' }, 'Report'), ui.reportNote, ui.reportLinks, ui.report))));
}

/** The list of saved reports, once. */
async function loadSaved() {
  if (state.saved.list) { renderSaved(); return; }
  try {
    state.saved.list = await api('results');
  } catch (error) {
    state.saved.error = error;
  }
  renderSaved();
}

/** Opens saved report `id`: its Markdown and the plots it shows. */
async function openSaved(id) {
  try {
    state.saved.shown = await api(`results/${id}`);
    state.saved.error = null;
  } catch (error) {
    state.saved.error = error;
  }
  renderSaved();
}

function renderSaved() {
  const ui = state.ui;
  if (!ui) return;
  const { list, shown, error } = state.saved;
  ui.savedButtons.replaceChildren(...(list ?? []).map((report) => el('button', {
    type: 'button', onclick: () => openSaved(report.id), 'aria-pressed': String(shown?.id === report.id),
  }, report.title.split(':')[0])));
  ui.savedNote.textContent = error ? `The saved reports could not be read: ${error.message}` : (list ? '' : 'Loading the saved reports…');
  if (!shown) { ui.savedReport.replaceChildren(); return; }
  if (ui.savedReport.dataset.id === shown.id) return;
  ui.savedReport.dataset.id = shown.id;
  ui.savedReport.replaceChildren(
    renderMarkdown(shown.markdown, { headingOffset: 2, idPrefix: 'exp-saved' }),
    el('div', { class: 'exp-plots' }, ...shown.plots.map((plot, index) => el('figure', { class: 'exp-plot' },
      el('img', { src: dataUrl('image/svg+xml', plot.svg), alt: plot.alt, 'aria-describedby': `exp-saved-plot-${index}` }),
      el('figcaption', { id: `exp-saved-plot-${index}` }, plot.alt)))));
}

/** The settings of the chosen experiment: a form built from its job's schema. */
async function renderFields() {
  const ui = state.ui;
  const id = state.experiment;
  const experiment = EXPERIMENTS[id];
  ui.experimentSelect.value = id;
  ui.description.textContent = experiment.description;
  if (!state.jobs[id]) {
    ui.form = null;
    ui.fields.replaceChildren(el('p', { class: 'note' }, 'Loading the settings…'));
    try {
      state.jobs[id] = await jobInfo(experiment.job);
    } catch (error) {
      state.error = error;
      render();
      return;
    }
    if (state.ui !== ui || state.experiment !== id) return;
  }
  ui.form = buildForm(state.jobs[id], {
    idPrefix: `exp-${id}-`, exclude: experiment.leftOut ?? [], values: state.values[id],
    onChange: readForm,
  });
  ui.fields.replaceChildren(ui.form.element);
  render();
}

function chooseExperiment() {
  state.experiment = state.ui.experimentSelect.value;
  replaceRoute('experiments', { experiment: state.experiment });
  renderFields();
  render();
}

function readForm() {
  const form = state.ui?.form;
  if (!form) return;
  try { state.values[state.experiment] = form.values(); } catch { /* shown at Run */ }
  renderCommand();
}

/** The flag of a request field: the CLI spells it with `-` for `_`. */
function flagOf(name) {
  return `--${name.replace(/_/g, '-')}`;
}

/** The job request from the form: only what differs from the job's defaults. */
function jobRequest(id) {
  return { job: EXPERIMENTS[id].job, ...state.ui.form.request() };
}

/** The command line that runs the same experiment (the request's fields as flags). */
function commandLine(id, request) {
  const parts = ['puzzle', 'experiment', id];
  for (const [name, value] of Object.entries(request)) {
    if (name === 'job') continue;
    if (value === true || value === false) {
      // A switch is named for its non-default side (`--amaf-on-hard`, `--no-…`).
      parts.push(value ? flagOf(name) : flagOf(`no_${name}`));
      continue;
    }
    const text = Array.isArray(value) ? value.join(',') : String(value);
    parts.push(flagOf(name), /^[\w.,<>+-]+$/.test(text) ? text : `'${text}'`);
  }
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Running the job

async function start() {
  if (state.running || !state.ui?.form) return;
  readForm();
  const id = state.experiment;
  let request;
  try {
    request = jobRequest(id);
  } catch (error) {
    state.error = error;
    render();
    return;
  }
  const controller = new AbortController();
  Object.assign(state, {
    running: true, controller, rows: [], progress: null, summary: null, end: null, error: null,
    run: { experiment: id, command: commandLine(id, request), startedAt: performance.now(), finishedAt: null },
  });
  state.ticker = setInterval(render, 500);
  render();
  try {
    state.end = await streamJob(request, onEvent, controller.signal);
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
  ui.runButton.disabled = state.running || !ui.form;
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
  const form = state.ui?.form;
  if (!form) return;
  let command;
  try {
    command = commandLine(state.experiment, jobRequest(state.experiment));
  } catch (error) {
    command = error.message;
  }
  state.ui.command.textContent = command;
}

function elapsedSeconds() {
  const run = state.run;
  return ((run.finishedAt ?? performance.now()) - run.startedAt) / 1000;
}

/** An estimate of the time left, from the runs done so far (each run has the same budget). */
function timeLeft(progress) {
  if (!progress || !(progress.done > 0) || !(progress.total > progress.done)) return '';
  const left = (elapsedSeconds() / progress.done) * (progress.total - progress.done);
  const shown = left < 90 ? `${Math.ceil(left)} s` : left < 5400 ? `${Math.ceil(left / 60)} min` : `${(left / 3600).toFixed(1)} h`;
  return ` · about ${shown} left`;
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
  if (state.running) return `Running ${run.experiment}: ${runs}${rows} · ${time}${timeLeft(progress)}`;
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
