// The Sokoban generator page: the `sokoban_generate` job's options as a form (built from the
// job's schema by forms.js: the objective, the boxes and the band of optimal pushes among them),
// Start/Stop, live charts of the best (most optimal pushes, or the thesis's score) and of
// iterations per second, a histogram of the kept levels' optimal pushes, a card per kept level
// with its measures (Play opens it on the Sokoban page; "Play all as a set" opens them all there
// as one set) and a download of all kept levels as XSB.

import { streamJob } from '../api.js';
import { navigate, replaceRoute } from '../route.js';
import { drawBoard, stateFromXsb } from '../board/sokoban.js';
import { el, downloadText } from '../ui.js';
import { buildForm, jobInfo } from '../forms.js';
import { svgNode, svgText, niceCeiling } from '../svg.js';

/** Options the page leaves out: it shows one generation (`seeds` asks for one per seed). */
const LEFT_OUT = ['seeds'];

/** Cards shown (and levels "Play all as a set" opens): a band can keep thousands of levels a
 * second; the download holds them all. */
const CARD_LIMIT = 48;

/** The page's only mutable state; a running job keeps going while another page is shown. */
const state = {
  job: null,          // {name, title, schema} of `sokoban_generate` (GET /api/jobs)
  formValues: {},     // the form's values, kept for the next visit
  running: false,
  controller: null,
  run: null,          // {width, height, aimed} of the current or last run (aimed: objective pushes)
  samples: [],        // [{t, best, ips}] from progress events
  latest: null,       // the last progress event
  levels: [],         // kept levels (result records)
  seedLevel: null,    // XSB of a level to continue from (the editor's "Generate from it")
  autoStart: false,   // start as soon as the options are loaded (the editor's one click)
  message: '',
  error: null,
  root: null,
  ui: null,
};

export function mount(main, params = new URLSearchParams()) {
  if (params.get('seed_level')) state.seedLevel = params.get('seed_level');
  state.autoStart = params.get('start') === '1' && !state.running;
  state.root = buildPage();
  main.append(state.root);
  render();
  loadForm();
  return () => { state.root = null; state.ui = null; };
}

/** The options, built from `sokoban_generate`'s schema. */
async function loadForm() {
  try {
    state.job ??= await jobInfo('sokoban_generate');
  } catch (error) {
    state.error = error;
    render();
    return;
  }
  const ui = state.ui;
  if (!ui || ui.form) return;
  ui.form = buildForm(state.job, {
    idPrefix: 'gen-', exclude: LEFT_OUT, values: state.formValues,
    onChange: (form) => {
      try { state.formValues = form.values(); } catch { /* shown at Start */ }
    },
  });
  ui.fields.replaceChildren(ui.form.element);
  showSeedSize();
  render();
  if (state.autoStart) {
    state.autoStart = false;
    replaceRoute('generate', state.seedLevel ? { seed_level: state.seedLevel } : {});
    start();
    ui.progressSection.scrollIntoView({ block: 'start' });
  }
}

/** With a seed level, the width and height fields are not used (the level's size, shown
 * above them, replaces them). */
function showSeedSize() {
  const form = state.ui?.form;
  if (!form) return;
  for (const name of ['width', 'height']) {
    const control = form.control(name);
    if (control) control.disabled = state.seedLevel !== null;
  }
}

function buildPage() {
  const ui = {};
  state.ui = ui;
  ui.fields = el('div', { class: 'generate-fields' }, el('p', { class: 'note' }, 'Loading the options…'));
  ui.startButton = el('button', { type: 'submit' }, 'Start');
  ui.stopButton = el('button', { type: 'button', onclick: stop }, 'Stop');
  const formElement = el('form', {
    class: 'generate-form', 'aria-labelledby': 'generate-options-heading',
    onsubmit: (event) => { event.preventDefault(); start(); },
  },
  el('h2', { id: 'generate-options-heading' }, 'Options'),
  ui.seedNote = el('div', { class: 'seed-note' }),
  el('p', { class: 'help' }, 'Empty fields keep their defaults, the strongest settings.'),
  ui.fields,
  el('div', { class: 'buttons' }, ui.startButton, ui.stopButton));
  ui.error = el('p', { class: 'error', role: 'alert' });
  ui.message = el('p', { class: 'note', role: 'status' });
  ui.stats = el('p', { class: 'stats', 'aria-live': 'off' });
  ui.scoreChart = el('figure', { class: 'chart' });
  ui.speedChart = el('figure', { class: 'chart' });
  ui.histogram = el('figure', { class: 'chart' });
  ui.cards = el('ol', { class: 'cards', 'aria-label': 'Kept levels' });
  ui.cardsNote = el('p', { class: 'note' });
  ui.downloadButton = el('button', { type: 'button', onclick: downloadSet }, 'Download set (XSB)');
  ui.playAllButton = el('button', { type: 'button', onclick: playAll }, 'Play all as a set');

  return el('div', { class: 'page generate-page' },
    el('h1', {}, 'Sokoban generator'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-side' }, el('section', { class: 'panel' }, formElement, ui.error, ui.message)),
      el('div', { class: 'column-main' },
        ui.progressSection = el('section', { class: 'panel', 'aria-labelledby': 'progress-heading' },
          el('h2', { id: 'progress-heading' }, 'Progress'), ui.stats,
          el('div', { class: 'charts' }, ui.scoreChart, ui.speedChart, ui.histogram)),
        el('section', { class: 'panel', 'aria-labelledby': 'kept-heading' },
          el('h2', { id: 'kept-heading' }, 'Kept levels'),
          el('div', { class: 'buttons' }, ui.playAllButton, ui.downloadButton), ui.cardsNote, ui.cards))));
}

/** The job request: only the options changed from the schema's defaults (and the seed level). */
function jobRequest() {
  const request = { job: 'sokoban_generate', ...state.ui.form.request() };
  if (state.seedLevel) {
    request.seed_level = state.seedLevel;
    delete request.width;
    delete request.height;
  }
  return request;
}

/** Back to generating from a board of walls. */
function dropSeed() {
  state.seedLevel = null;
  showSeedSize();
  replaceRoute('generate');
  render();
}

// ---------------------------------------------------------------------------------------------
// Running the job

async function start() {
  if (state.running || !state.ui?.form) return;
  let request;
  try {
    request = jobRequest();
  } catch (error) {
    state.error = error;
    render();
    return;
  }
  const controller = new AbortController();
  Object.assign(state, {
    running: true, controller, run: {
      ...(state.seedLevel ? seedSize(state.seedLevel) : { width: sizeOf(request, 'width'), height: sizeOf(request, 'height') }),
      aimed: sizeOf(request, 'objective') === 'pushes',
    },
    samples: [], latest: null, levels: [], message: 'Generating…', error: null,
  });
  render();
  try {
    const end = await streamJob(request, onEvent, controller.signal);
    state.message = `Finished (${end.reason}): ${state.levels.length} level${state.levels.length === 1 ? '' : 's'} kept.`;
  } catch (error) {
    state.error = error;
    state.message = '';
  } finally {
    state.running = false;
    state.controller = null;
    render();
  }
}

function onEvent(name, data) {
  if (name === 'progress') {
    state.latest = data;
    state.samples.push({ t: data.elapsed_s ?? 0, best: data.best_score ?? 0, ips: data.iterations_per_s ?? 0 });
  } else if (name === 'result') {
    state.levels.push(data);
  } else if (name === 'error') {
    state.error = new Error(data.error ?? String(data));
  }
  scheduleRender();
}

let renderQueued = false;

/** Render once per frame however many events arrive in it. */
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function stop() {
  state.controller?.abort();
}

/** The board size a request asks for (the schema's default when the form leaves it). */
/** The board of a seed level: its text's rows and columns without the outer ring (labels only). */
function seedSize(xsb) {
  const rows = xsb.split('\n').filter((row) => row.trim() !== '' && !row.trimStart().startsWith(';'));
  return { width: Math.max(...rows.map((row) => row.length)) - 2, height: rows.length - 2 };
}

function sizeOf(request, name) {
  return request[name] ?? state.ui?.form?.field(name)?.default ?? '?';
}

function playLevel(level) {
  navigate('sokoban', { xsb: `; ${levelTitle(level)}\n${level.xsb}` });
}

/** Opens every kept level on the Sokoban page as one set (its level browser lists them). */
function playAll() {
  if (state.levels.length === 0) return;
  const shown = state.levels.slice(0, CARD_LIMIT);
  navigate('sokoban', { xsb: shown.map((level) => `; ${levelTitle(level)}\n${level.xsb}`).join('\n') });
}

function levelTitle(level) {
  const run = state.run ?? { width: '?', height: '?' };
  const measure = level.optimal_pushes !== undefined
    ? `${level.optimal_pushes} pushes`
    : `score ${Number(level.score).toFixed(4)}`;
  return `sokogen ${run.width}x${run.height} #${level.index} ${measure}`;
}

/** All kept levels as XSB, each with its solution and metrics as comments and a title line. */
function downloadSet() {
  const text = state.levels.map((level) => [
    `; solution: ${level.solution ?? ''}`,
    `; ${level.optimal_pushes !== undefined ? `optimal_pushes=${level.optimal_pushes} ` : ''}score=${Number(level.score).toFixed(4)} pb=${level.pb} pc=${Number(level.pc).toFixed(4)} boxes=${level.boxes} iteration=${level.iteration} time_s=${Number(level.time_s).toFixed(3)}`,
    `; ${levelTitle(level)}`,
    level.xsb.replace(/\n+$/, ''),
    '',
  ].join('\n')).join('\n');
  downloadText('sokogen-levels.xsb', text);
}

// ---------------------------------------------------------------------------------------------
// Rendering

function render() {
  const ui = state.ui;
  if (!ui) return;
  ui.startButton.disabled = state.running || !ui.form;
  if (ui.shownSeed !== state.seedLevel) {
    ui.shownSeed = state.seedLevel;
    const size = state.seedLevel ? seedSize(state.seedLevel) : null;
    ui.seedNote.replaceChildren(...(state.seedLevel
      ? [el('p', { class: 'note', role: 'note' }, `Continuing from your level (${size.width}×${size.height} inside its walls): its floor, `
          + 'with boxes on its goals, is where the search starts.'),
        drawBoard(stateFromXsb(state.seedLevel), { showDeadlocks: false, cellPixels: 14, label: `Your level, ${size.width} by ${size.height}` }),
        el('button', { type: 'button', onclick: dropSeed }, 'Generate from scratch')]
      : []));
  }
  ui.stopButton.disabled = !state.running;
  ui.downloadButton.disabled = state.levels.length === 0;
  ui.playAllButton.disabled = state.levels.length === 0;
  ui.error.textContent = state.error ? state.error.message : '';
  ui.message.textContent = state.message;
  const latest = state.latest;
  const aimed = state.run?.aimed ?? false;
  const best = aimed ? `most pushes ${latest?.best_score ?? 0}` : `best score ${Number(latest?.best_score ?? 0).toFixed(3)}`;
  ui.stats.textContent = latest
    ? `${Number(latest.elapsed_s).toFixed(1)} s, ${Number(latest.iterations ?? 0).toLocaleString()} iterations `
      + `(${Math.round(latest.iterations_per_s ?? 0).toLocaleString()}/s), ${best}, `
      + `${state.levels.length} kept`
    : 'No run yet.';
  ui.scoreChart.replaceChildren(...chart(aimed
    ? {
      title: 'Most optimal pushes over time', yLabel: 'optimal pushes', value: (sample) => sample.best,
      marks: state.levels.filter((level) => level.new_best).map((level) => ({ t: level.time_s, y: level.optimal_pushes })),
    }
    : {
      title: 'Best score over time', yLabel: 'best score', value: (sample) => sample.best,
      marks: state.levels.filter((level) => level.new_best).map((level) => ({ t: level.time_s, y: level.score })),
    }));
  ui.histogram.replaceChildren(...(aimed ? histogram(state.levels.map((level) => level.optimal_pushes)) : []));
  ui.histogram.hidden = !aimed;
  ui.speedChart.replaceChildren(...chart({
    title: 'Iterations per second over time', yLabel: 'iterations/s', value: (sample) => sample.ips, marks: [],
  }));
  renderCards();
}

function renderCards() {
  const ui = state.ui;
  const shown = ui.cards.children.length;
  if (shown > state.levels.length) ui.cards.replaceChildren();
  for (const level of state.levels.slice(ui.cards.children.length, CARD_LIMIT)) ui.cards.append(card(level));
  ui.cardsNote.textContent = state.levels.length > CARD_LIMIT
    ? `Showing the first ${CARD_LIMIT} of ${state.levels.length.toLocaleString()} kept levels; the download holds them all.`
    : '';
}

function card(level) {
  const headingId = `kept-level-${level.index}`;
  const thumbnail = drawBoard(stateFromXsb(level.xsb), {
    showDeadlocks: false, cellPixels: 14, label: `Level ${level.index}, ${level.boxes} boxes`,
  });
  const metric = (term, value) => [el('dt', {}, term), el('dd', {}, value)];
  return el('li', { class: 'card' },
    el('h3', { id: headingId }, `Level ${level.index}${level.new_best ? ' (new best)' : ''}`),
    thumbnail,
    el('dl', {},
      ...(level.optimal_pushes !== undefined
        ? [
          metric('Optimal pushes', String(level.optimal_pushes)),
          metric('Box lines', String(level.box_lines ?? '—')),
          metric('Box changes', String(level.box_changes ?? '—')),
        ]
        : [
          metric('Score', Number(level.score).toFixed(3)),
          metric('Wall patterns (P_b: 3×3 blocks of walls and floor)', String(level.pb)),
          metric('Congestion (P_c: boxes and walls between boxes and goals)', Number(level.pc).toFixed(2)),
        ]),
      metric('Boxes', String(level.boxes)),
      metric('Found', `${Number(level.time_s).toFixed(1)} s, iteration ${level.iteration}`)),
    el('button', { type: 'button', 'aria-describedby': headingId, onclick: () => playLevel(level) }, 'Play'));
}

/** A line chart (SVG) of a value over elapsed seconds, with labelled axes and ticks. */
function chart({ title, yLabel, value, marks }) {
  const size = { width: 600, height: 220, left: 62, right: 16, top: 12, bottom: 40 };
  const plotWidth = size.width - size.left - size.right;
  const plotHeight = size.height - size.top - size.bottom;
  const samples = state.samples;
  const tMax = 4 * niceCeiling(Math.max(1, ...samples.map((sample) => sample.t), ...marks.map((mark) => mark.t)) / 4);
  const yMax = 4 * niceCeiling((Math.max(0, ...samples.map(value), ...marks.map((mark) => mark.y)) || 1) / 4);
  const x = (t) => size.left + (t / tMax) * plotWidth;
  const y = (v) => size.top + plotHeight - (v / yMax) * plotHeight;
  const last = samples.at(-1);
  const description = last
    ? `${title}: ${formatTick(value(last))} ${yLabel} at ${last.t.toFixed(1)} s`
    : `${title}: no data yet`;
  const svg = svgNode('svg', {
    viewBox: `0 0 ${size.width} ${size.height}`, class: 'chart-svg', role: 'img', 'aria-label': description,
  });
  svg.append(svgNode('rect', { x: size.left, y: size.top, width: plotWidth, height: plotHeight, class: 'chart-area' }));
  for (let i = 0; i <= 4; i++) {
    const tickY = (yMax * i) / 4;
    const tickT = (tMax * i) / 4;
    svg.append(svgNode('line', { x1: size.left, x2: size.left + plotWidth, y1: y(tickY), y2: y(tickY), class: 'chart-grid' }));
    svg.append(svgText(formatTick(tickY), size.left - 6, y(tickY) + 4, 'end'));
    svg.append(svgText(formatTick(tickT), x(tickT), size.top + plotHeight + 16, 'middle'));
  }
  svg.append(svgText('elapsed time (s)', size.left + plotWidth / 2, size.height - 4, 'middle', 'chart-axis-label'));
  const yText = svgText(yLabel, 14, size.top + plotHeight / 2, 'middle', 'chart-axis-label');
  yText.setAttribute('transform', `rotate(-90 14 ${size.top + plotHeight / 2})`);
  svg.append(yText);
  // The line joins the progress samples and the marks (kept levels), in time order.
  const series = [...samples.map((sample) => ({ t: sample.t, y: value(sample) })), ...marks].sort((a, b) => a.t - b.t);
  if (series.length > 0) {
    const points = series.map((point) => `${x(point.t).toFixed(1)},${y(point.y).toFixed(1)}`).join(' ');
    svg.append(svgNode('polyline', { points, class: 'chart-line' }));
  }
  for (const mark of marks) svg.append(svgNode('circle', { cx: x(mark.t), cy: y(mark.y), r: 3.5, class: 'chart-mark' }));
  return [svg, el('figcaption', {}, title)];
}

/** A histogram (SVG bars) of the kept levels' optimal pushes: one bar per push count, or per
 * range of counts when they spread wide. */
function histogram(values) {
  const title = 'Optimal pushes of the kept levels';
  const size = { width: 600, height: 220, left: 62, right: 16, top: 12, bottom: 40 };
  const plotWidth = size.width - size.left - size.right;
  const plotHeight = size.height - size.top - size.bottom;
  const sorted = [...values].sort((a, b) => a - b);
  const description = sorted.length
    ? `${title}: ${sorted.length} levels, median ${sorted[Math.floor((sorted.length - 1) / 2)]}, most ${sorted.at(-1)}`
    : `${title}: no levels yet`;
  const svg = svgNode('svg', {
    viewBox: `0 0 ${size.width} ${size.height}`, class: 'chart-svg', role: 'img', 'aria-label': description,
  });
  svg.append(svgNode('rect', { x: size.left, y: size.top, width: plotWidth, height: plotHeight, class: 'chart-area' }));
  const low = sorted[0] ?? 0;
  const high = sorted.at(-1) ?? 0;
  const width = Math.max(1, Math.ceil((high - low + 1) / 30));
  const bins = Math.max(1, Math.floor((high - low) / width) + 1);
  const counts = new Array(bins).fill(0);
  for (const v of sorted) counts[Math.floor((v - low) / width)] += 1;
  const yMax = 4 * niceCeiling(Math.max(1, ...counts) / 4);
  const barWidth = plotWidth / bins;
  for (let i = 0; i <= 4; i++) {
    const tick = (yMax * i) / 4;
    const y = size.top + plotHeight - (tick / yMax) * plotHeight;
    svg.append(svgNode('line', { x1: size.left, x2: size.left + plotWidth, y1: y, y2: y, class: 'chart-grid' }));
    svg.append(svgText(formatTick(tick), size.left - 6, y + 4, 'end'));
  }
  counts.forEach((count, i) => {
    const height = (count / yMax) * plotHeight;
    svg.append(svgNode('rect', {
      x: size.left + i * barWidth + 1, y: size.top + plotHeight - height, width: Math.max(1, barWidth - 2), height,
      class: 'chart-bar',
    }));
  });
  const labels = Math.min(bins, 6);
  for (let k = 0; k < labels; k++) {
    const i = Math.round((k * (bins - 1)) / Math.max(1, labels - 1));
    const from = low + i * width;
    svg.append(svgText(width === 1 ? String(from) : `${from}–${from + width - 1}`,
      size.left + (i + 0.5) * barWidth, size.top + plotHeight + 16, 'middle'));
  }
  svg.append(svgText('optimal pushes', size.left + plotWidth / 2, size.height - 4, 'middle', 'chart-axis-label'));
  const yText = svgText('levels', 14, size.top + plotHeight / 2, 'middle', 'chart-axis-label');
  yText.setAttribute('transform', `rotate(-90 14 ${size.top + plotHeight / 2})`);
  svg.append(yText);
  return [svg, el('figcaption', {}, title)];
}

function formatTick(value) {
  if (value >= 10000) return `${Math.round(value / 1000)}k`;
  if (value >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}
