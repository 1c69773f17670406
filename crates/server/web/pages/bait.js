// The Bait page: play GVGAI's Bait with the keyboard (every position from `/api/bait/play`, the
// rules the agents play by), or pick an agent and watch it play tick by tick (a `bait_play` job;
// pause, step and speed move over the frames received so far). The page keeps only view state:
// the action strings of the undo stack, the frames, the replay position.

import { api, streamJob } from '../api.js';
import { drawBoard, LEGEND, tileSwatch } from '../board/bait.js';
import { el, field, moveCaretTo, isTextEntry } from '../ui.js';
import { createReplay } from '../replay.js';
import { buildForm, jobInfo } from '../forms.js';

const PASTED = 'pasted';
/** The `bait_play` fields the page fills itself: the level on screen. */
const PAGE_FIELDS = ['level', 'text', 'source'];
const KEY_ACTIONS = {
  ArrowLeft: 'L', ArrowUp: 'U', ArrowRight: 'R', ArrowDown: 'D', a: 'L', w: 'U', d: 'R', s: 'D', ' ': 'N',
};
const WATCH_SPEEDS = [
  { label: 'Slow (4 ticks/s)', ms: 250 },
  { label: 'Normal (10 ticks/s)', ms: 100 },
  { label: 'Fast (25 ticks/s)', ms: 40 },
  { label: 'Very fast (60 ticks/s)', ms: 16 },
];
const STATUS_TEXT = {
  won: 'Won! Every door is open.',
  dead: 'Lost: the avatar fell into a hole.',
  timeout: 'Lost: out of time (2000 ticks).',
};

/** The page's only mutable state; it outlives a visit to another page. */
const state = {
  levels: [],            // [{id, name, text, width, height}] from the server
  watchJob: null,        // {name, title, schema} of `bait_play` (GET /api/jobs)
  watchValues: {},       // the watch form's values, kept for the next visit
  level: null,           // {id (0-4, or null when pasted), name, text}
  levelError: null,      // Error (with line/column when the server gave them)
  history: [],           // undo stack: [{actions, state}] as the server gave them
  cursor: 0,             // history[cursor] is on screen
  actionQueue: Promise.resolve(),
  playMessage: '',
  watch: { running: false, controller: null, level: null, agent: '', frames: [], result: null, error: null, message: '' },
  playback: createReplay({   // position in the watched frames, playing, timer and speed
    showFrame: () => render(), frameCount: () => state.watch.frames.length, onChange: () => render(),
    live: () => state.watch.running, speedMs: WATCH_SPEEDS[1].ms, playing: true,
  }),
  root: null,
  ui: null,
};

// ---------------------------------------------------------------------------------------------
// Mounting and the static skeleton

export function mount(main, params = new URLSearchParams()) {
  state.root = buildPage();
  main.append(state.root);
  document.addEventListener('keydown', onKeyDown);
  startPage(params);
  render();
  return () => {
    document.removeEventListener('keydown', onKeyDown);
    state.playback.stopTimer();
    state.root = null;
    state.ui = null;
  };
}

async function startPage(params) {
  try {
    if (state.levels.length === 0 || !state.watchJob) {
      [state.levels, state.watchJob] = await Promise.all([api('bait/levels'), jobInfo('bait_play')]);
      renderOptions();
    }
    buildWatchForm();
    const wanted = Number(params.get('level'));
    if (params.has('level') && state.levels[wanted]) await chooseLevel(wanted);
    else if (!state.level) await chooseLevel(0);
  } catch (error) {
    state.levelError = error;
  }
  render();
}

function buildPage() {
  const ui = {};
  state.ui = ui;

  // Play
  ui.boardHolder = el('div', {
    class: 'board-holder', tabindex: 0, role: 'application', 'aria-label': 'Board',
    'aria-describedby': 'bait-board-help',
  });
  ui.tickOutput = el('output', { id: 'bait-tick' }, '0');
  ui.scoreOutput = el('output', { id: 'bait-score' }, '0');
  ui.keyOutput = el('output', { id: 'bait-key' }, 'no');
  ui.statusLine = el('p', { class: 'game-status', role: 'status' });
  ui.playMessage = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.undoButton = el('button', { type: 'button', onclick: () => queueAction(undo), 'aria-keyshortcuts': 'Control+Z Backspace' }, 'Undo');
  ui.redoButton = el('button', { type: 'button', onclick: () => queueAction(redo), 'aria-keyshortcuts': 'Control+Y' }, 'Redo');
  ui.restartButton = el('button', { type: 'button', onclick: () => queueAction(restart) }, 'Restart');
  ui.actionsOutput = el('output', { id: 'bait-actions', class: 'actions-text' });

  const legend = el('ul', { class: 'legend', 'aria-label': 'Legend' },
    LEGEND.map(([ch, name]) => el('li', {}, tileSwatch(ch), el('span', {}, name))));

  const playSection = el('section', { class: 'panel play', 'aria-labelledby': 'bait-play-heading' },
    el('h2', { id: 'bait-play-heading' }, 'Play'),
    ui.boardHolder,
    el('p', { id: 'bait-board-help', class: 'help' },
      'Arrow keys or WASD move, Space waits a tick; Ctrl+Z or Backspace undoes, Ctrl+Y redoes. '
      + 'Fill holes with boxes, take the key, open the door; a hole is death.'),
    el('div', { class: 'counters' },
      el('span', { class: 'counter' }, el('label', { for: 'bait-tick' }, 'Tick'), ' ', ui.tickOutput),
      el('span', { class: 'counter' }, el('label', { for: 'bait-score' }, 'Score'), ' ', ui.scoreOutput),
      el('span', { class: 'counter' }, el('label', { for: 'bait-key' }, 'Key held'), ' ', ui.keyOutput)),
    ui.statusLine,
    el('div', { class: 'buttons' }, ui.undoButton, ui.redoButton, ui.restartButton),
    ui.playMessage,
    el('p', { class: 'note' }, el('label', { for: 'bait-actions' }, 'Actions'), ' ', ui.actionsOutput),
    el('h3', {}, 'Legend'),
    legend,
  );

  // Levels
  ui.levelSelect = el('select', { id: 'bait-level', onchange: () => onLevelChosen(ui.levelSelect.value) });
  ui.pasteArea = el('textarea', {
    id: 'bait-paste', rows: 7, cols: 16, spellcheck: 'false', class: 'xsb-input',
    'aria-describedby': 'bait-paste-error bait-paste-help',
  });
  ui.loadButton = el('button', { type: 'button', onclick: () => loadPasted(ui.pasteArea.value) }, 'Load level');
  ui.levelError = el('p', { id: 'bait-paste-error', class: 'error', role: 'alert' });
  const levelSection = el('section', { class: 'panel levels', 'aria-labelledby': 'bait-levels-heading' },
    el('h2', { id: 'bait-levels-heading' }, 'Levels'),
    field('Level', ui.levelSelect),
    field('Paste level text', ui.pasteArea),
    el('p', { id: 'bait-paste-help', class: 'help' },
      'GVGAI text: w wall, A avatar, 0 hole, 1 box, k key, g door, m mushroom, . floor.'),
    ui.levelError,
    el('div', { class: 'buttons' }, ui.loadButton),
  );

  // Watch an agent
  // The agent and its settings arrive with the job's schema (buildWatchForm).
  ui.watchFields = el('div', { class: 'bait-watch-fields' }, el('p', { class: 'note' }, 'Loading the agents…'));
  ui.agentAbout = el('p', { id: 'bait-agent-about', class: 'help' });
  ui.watchButton = el('button', { type: 'button', onclick: startWatch }, 'Watch');
  ui.stopButton = el('button', { type: 'button', onclick: stopWatch }, 'Stop');
  ui.watchStatus = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.watchError = el('p', { class: 'error', role: 'alert' });
  ui.watchResult = el('p', { class: 'game-status', role: 'status' });
  ui.watchBoard = el('div', { class: 'watch-board' });
  ui.watchBack = el('button', { type: 'button', onclick: () => state.playback.step(-1) }, 'Step back');
  ui.watchPlay = el('button', { type: 'button', onclick: () => state.playback.toggle() }, 'Pause');
  ui.watchForward = el('button', { type: 'button', onclick: () => state.playback.step(1) }, 'Step forward');
  ui.speedSelect = el('select', {
    id: 'bait-speed', onchange: () => { state.playback.speedMs = Number(ui.speedSelect.value); },
  }, WATCH_SPEEDS.map((speed) => el('option', { value: String(speed.ms), selected: speed.ms === state.playback.speedMs }, speed.label)));
  ui.scrubber = el('input', {
    id: 'bait-frame', type: 'range', min: 0, max: 0, step: 1, value: '0',
    oninput: () => state.playback.scrubTo(Number(ui.scrubber.value)),
  });
  ui.frameInfo = el('p', { class: 'note frame-info' });

  const watchSection = el('section', { class: 'panel watch', 'aria-labelledby': 'bait-watch-heading' },
    el('h2', { id: 'bait-watch-heading' }, 'Watch an agent'),
    ui.watchFields,
    ui.agentAbout,
    el('div', { class: 'buttons' }, ui.watchButton, ui.stopButton),
    ui.watchStatus, ui.watchError,
    ui.watchBoard,
    ui.watchResult,
    el('fieldset', { class: 'replay' },
      el('legend', {}, 'Frames'),
      el('div', { class: 'buttons' }, ui.watchBack, ui.watchPlay, ui.watchForward),
      el('div', { class: 'row' }, field('Speed', ui.speedSelect), field('Frame', ui.scrubber)),
      ui.frameInfo),
  );

  renderOptions();
  return el('div', { class: 'page bait-page' },
    el('h1', {}, 'Bait'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-main' }, playSection),
      el('div', { class: 'column-side' }, levelSection, watchSection)));
}

// ---------------------------------------------------------------------------------------------
// Rendering: the skeleton stays, render() updates it from `state`

function render() {
  const ui = state.ui;
  if (!ui) return;
  const shown = state.history[state.cursor]?.state ?? null;
  if (ui.drawnState !== shown || !shown) {
    ui.drawnState = shown;
    ui.boardHolder.replaceChildren(shown
      ? drawBoard(shown, { cellPixels: 56 })
      : el('p', { class: 'note' }, state.levelError ? 'No level loaded.' : 'Loading…'));
  }
  ui.tickOutput.value = String(shown?.tick ?? 0);
  ui.scoreOutput.value = String(shown?.score ?? 0);
  ui.keyOutput.value = shown?.has_key ? 'yes' : 'no';
  ui.statusLine.textContent = shown ? STATUS_TEXT[shown.status] ?? '' : '';
  ui.statusLine.dataset.status = shown?.status ?? '';
  ui.playMessage.textContent = state.playMessage;
  ui.actionsOutput.value = state.history[state.cursor]?.actions || '(none yet)';
  ui.undoButton.disabled = state.cursor === 0;
  ui.redoButton.disabled = state.cursor >= state.history.length - 1;
  ui.restartButton.disabled = !state.level;

  ui.levelError.textContent = state.levelError ? state.levelError.message : '';
  ui.pasteArea.toggleAttribute('aria-invalid', Boolean(state.levelError?.line));
  renderLevelOptions();

  renderWatch();
}

/** The agent and its settings, built from `bait_play`'s schema. */
function buildWatchForm() {
  const ui = state.ui;
  if (!ui || !state.watchJob || ui.watchForm) return;
  ui.watchForm = buildForm(state.watchJob, {
    idPrefix: 'bait-', exclude: PAGE_FIELDS, values: state.watchValues,
    onChange: (form) => {
      try { state.watchValues = form.values(); } catch { /* shown when the watch starts */ }
      render();
    },
  });
  ui.watchForm.control('agent')?.setAttribute('aria-describedby', 'bait-agent-about');
  ui.watchFields.replaceChildren(ui.watchForm.element);
}

function renderOptions() {
  const ui = state.ui;
  if (!ui) return;
  renderLevelOptions();
}

function renderLevelOptions() {
  const ui = state.ui;
  const pasted = state.level && state.level.id === null;
  const signature = `${state.levels.length}:${pasted}`;
  if (ui.levelSelect.dataset.signature !== signature) {
    ui.levelSelect.dataset.signature = signature;
    const options = state.levels.map((level) => el('option', { value: String(level.id) },
      `${level.name} (${level.width}×${level.height})`));
    if (pasted) options.push(el('option', { value: PASTED }, 'Pasted level'));
    ui.levelSelect.replaceChildren(...options);
  }
  if (state.level) ui.levelSelect.value = state.level.id === null ? PASTED : String(state.level.id);
}

function renderWatch() {
  const ui = state.ui;
  const watch = state.watch;
  const playback = state.playback;
  const frame = watch.frames[playback.position] ?? null;
  const agent = ui.watchForm?.field('agent')?.choices.find((choice) => choice.value === ui.watchForm.value('agent'));
  ui.agentAbout.textContent = agent ? agent.help : '';
  ui.watchButton.disabled = watch.running || !state.level || !ui.watchForm;
  ui.stopButton.disabled = !watch.running;
  ui.watchStatus.textContent = watchStatusText();
  ui.watchError.textContent = watch.error ? watch.error.message : '';
  if (ui.drawnFrame !== frame) {
    ui.drawnFrame = frame;
    ui.watchBoard.replaceChildren(frame
      ? drawBoard(frame, { cellPixels: 36, label: "Agent's board" })
      : el('p', { class: 'note' }, 'Pick an agent and press Watch to see it play this level.'));
  }
  ui.watchResult.textContent = watch.result ? resultText(watch.result) : '';
  ui.watchResult.dataset.status = watch.result ? (watch.result.win ? 'won' : 'lost') : '';
  const count = watch.frames.length;
  for (const control of [ui.watchBack, ui.watchPlay, ui.watchForward, ui.scrubber]) control.disabled = count === 0;
  ui.watchPlay.textContent = playback.playing ? 'Pause' : 'Play';
  ui.scrubber.max = String(Math.max(0, count - 1));
  ui.scrubber.value = String(playback.position);
  ui.scrubber.setAttribute('aria-valuetext', count ? `tick ${frame?.tick ?? 0} of ${count - 1} received` : 'no frames yet');
  ui.frameInfo.textContent = frame ? frameText(frame, count) : '';
}

function watchStatusText() {
  const watch = state.watch;
  if (watch.running) return `${watch.agent} is playing… ${Math.max(0, watch.frames.length - 1)} ticks so far.`;
  return watch.message;
}

function frameText(frame, count) {
  const parts = [`Tick ${frame.tick} of ${count - 1} received`];
  if (frame.action) parts.push(`action ${frame.action}`);
  if (frame.move_ms !== null && frame.move_ms !== undefined) {
    parts.push(`move time ${formatMs(frame.move_ms)} CPU (${formatMs(frame.move_wall_ms)} wall)`);
  }
  parts.push(`score ${frame.score}`);
  if (frame.has_key) parts.push('key held');
  return `${parts.join(' · ')}.`;
}

function resultText(result) {
  if (result.unwinnable) return `${result.agent}: this level cannot be won — ${result.unwinnable}.`;
  const outcome = result.win ? 'won' : result.interrupted ? 'was stopped' : 'lost';
  return `${result.agent} ${outcome}: score ${result.score} in ${result.ticks} ticks; `
    + `longest move ${formatMs(result.max_move_ms)} CPU (99% of moves within `
    + `${formatMs(result.p99_move_ms)}), setup ${formatMs(result.setup_ms)}.`;
}

function formatMs(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}

// ---------------------------------------------------------------------------------------------
// Levels

/** The level part of a request: a bundled level by number, or a pasted level's text. */
function levelBody(level) {
  return level.id === null ? { text: level.text } : { level: level.id };
}

async function onLevelChosen(value) {
  if (value === PASTED) return;
  await chooseLevel(Number(value));
}

async function chooseLevel(id) {
  const level = state.levels[id];
  if (!level) return;
  state.levelError = null;
  await openLevel({ id: level.id, name: level.name, text: level.text });
}

async function loadPasted(text) {
  try {
    const answer = await api('bait/play', { text, actions: '' });
    state.levelError = null;
    await openLevel({ id: null, name: 'Pasted level', text }, answer);
  } catch (error) {
    state.levelError = error;
    render();
    if (error.line) moveCaretTo(state.ui?.pasteArea, error.line, error.column ?? 1);
  }
}

/** Shows a level from its start, dropping the moves and the watched game of the previous one. */
async function openLevel(level, startAnswer = null) {
  stopWatch();
  clearWatch();
  state.level = level;
  state.history = [];
  state.cursor = 0;
  state.playMessage = '';
  render();
  try {
    const answer = startAnswer ?? await api('bait/play', { ...levelBody(level), actions: '' });
    if (state.level !== level) return;
    state.history = [{ actions: answer.actions, state: answer.state }];
  } catch (error) {
    state.levelError = error;
  }
  render();
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

function pushPosition(actions, shown) {
  state.history = state.history.slice(0, state.cursor + 1);
  state.history.push({ actions, state: shown });
  state.cursor = state.history.length - 1;
}

async function playAction(letter) {
  const level = state.level;
  const current = state.history[state.cursor];
  if (!level || !current) return;
  const answer = await api('bait/play', { ...levelBody(level), actions: current.actions + letter });
  if (state.level !== level) return;
  if (answer.dropped > 0) {
    state.playMessage = 'The game is over: undo or restart to play on.';
  } else {
    pushPosition(answer.actions, answer.state);
    state.playMessage = '';
  }
  render();
}

async function undo() {
  if (state.cursor > 0) state.cursor -= 1;
  state.playMessage = '';
  render();
}

async function redo() {
  if (state.cursor < state.history.length - 1) state.cursor += 1;
  state.playMessage = '';
  render();
}

async function restart() {
  const start = state.history[0];
  if (start && state.cursor !== 0) pushPosition(start.actions, start.state);
  state.playMessage = '';
  render();
}

function onKeyDown(event) {
  if (isTextEntry(event.target) || event.altKey || event.metaKey) return;
  const letter = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (event.ctrlKey) {
    if (letter === 'z' && !event.shiftKey) { event.preventDefault(); queueAction(undo); }
    else if (letter === 'y' || (letter === 'z' && event.shiftKey)) { event.preventDefault(); queueAction(redo); }
    return;
  }
  if (letter === 'Backspace') { event.preventDefault(); queueAction(undo); return; }
  // Space on a focused button presses the button; it waits a tick everywhere else.
  if (letter === ' ' && event.target instanceof HTMLElement && event.target.closest('button, a')) return;
  const action = KEY_ACTIONS[letter];
  if (!action) return;
  event.preventDefault();
  queueAction(() => playAction(action));
}

// ---------------------------------------------------------------------------------------------
// Watch an agent: a `bait_play` job; its tick events are the frames

function clearWatch() {
  state.playback.reset(true);
  Object.assign(state.watch, { frames: [], result: null, error: null, message: '' });
}

async function startWatch() {
  const ui = state.ui;
  const watch = state.watch;
  if (!state.level || watch.running || !ui?.watchForm) return;
  let settings;
  try {
    settings = ui.watchForm.request();
  } catch (error) {
    watch.error = error;
    render();
    return;
  }
  clearWatch();
  const controller = new AbortController();
  const level = state.level;
  Object.assign(watch, { running: true, controller, level, agent: ui.watchForm.value('agent') });
  // The level on screen, and only the settings changed from the job's defaults.
  const request = { job: 'bait_play', ...levelBody(level), source: level.name, ...settings };
  render();
  try {
    const end = await streamJob(request, (name, data) => onWatchEvent(level, name, data), controller.signal);
    if (state.level !== level) return;
    if (end.reason === 'stopped') watch.message = 'Stopped.';
    else if (end.reason === 'time_cap') watch.message = "Stopped at the server's time cap.";
    else if (!watch.result && !watch.error) watch.message = `Ended (${end.reason}) without a result.`;
    else watch.message = '';
  } catch (error) {
    if (state.level === level) watch.error = error;
  } finally {
    watch.running = false;
    watch.controller = null;
    state.playback.keepPlaying();
    render();
  }
}

function onWatchEvent(level, name, data) {
  const watch = state.watch;
  if (state.level !== level) return;
  if (name === 'progress') {
    watch.frames.push(data);
    state.playback.keepPlaying();
  } else if (name === 'result') {
    watch.result = data;
  } else if (name === 'error') {
    watch.error = new Error(data.error ?? String(data));
  }
  render();
}

function stopWatch() {
  state.watch.controller?.abort();
}
