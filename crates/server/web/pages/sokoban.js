// The Sokoban page: choose or paste a level, play it (keys, clicks, undo/redo), solve it with a
// job and replay the solution, ask for a hint, export. Every state drawn comes from the server
// (`/api/sokoban/play`); the page keeps only view state in `state`.

import { api, streamJob } from '../api.js';
import { pageUrl, replaceRoute } from '../route.js';
import { drawBoard, stateFromXsb } from '../board/sokoban.js';
import { el, field, downloadText, copyText, slug, moveCaretTo, isTextEntry } from '../ui.js';
import { cellAt } from '../svg.js';
import { createReplay } from '../replay.js';
import { buildForm, jobInfo } from '../forms.js';
import { levelRecord, recordSolved, lastChoice, keepChoice, savedPosition, savePosition } from '../sokoban-store.js';

const PASTED_SET = 'pasted';
const KEY_DIRECTIONS = {
  ArrowLeft: 'l', ArrowUp: 'u', ArrowRight: 'r', ArrowDown: 'd', a: 'l', w: 'u', d: 'r', s: 'd',
};
const REPLAY_SPEEDS = [
  { label: 'Slow (4 moves/s)', ms: 250 },
  { label: 'Normal (8 moves/s)', ms: 125 },
  { label: 'Fast (16 moves/s)', ms: 60 },
  { label: 'Very fast (33 moves/s)', ms: 30 },
];
/** Thumbnails shown at once in the level browser. */
const BROWSER_PAGE = 24;
/** The `sokoban_solve` fields the page fills itself: the level on screen. */
const PAGE_FIELDS = ['xsb', 'source', 'level'];

/** The page's only mutable state; it outlives a visit to another page. */
const state = {
  sets: [],              // [{id, name, levels}]
  setId: 'microban',
  levels: [],            // level records of the chosen set (or of the pasted text)
  levelPosition: 0,      // index into `levels`
  level: null,           // {title, xsb}
  levelError: null,      // Error with line/column from parse or a load failure
  history: [],           // undo stack: [{moves, state}] as the server gave them
  cursor: 0,             // history[cursor] is on screen (unless a replay is)
  showDeadlocks: true,
  actionQueue: Promise.resolve(),
  playMessage: '',
  solveJob: null,        // {name, title, schema} of `sokoban_solve` (GET /api/jobs)
  solveValues: {},       // the solve form's values, kept for the next visit
  solve: { running: false, controller: null, startedAt: 0, elapsed: 0, progress: null, message: '', error: null, result: null },
  replay: null,          // {solution, level, frames: [promise], shown, shownPosition}
  playback: createReplay({   // position, playing, timer and speed of the replay
    showFrame, frameCount: () => (state.replay ? state.replay.solution.length + 1 : 0), onChange: () => render(),
    speedMs: REPLAY_SPEEDS[1].ms,
  }),
  hint: { pending: false, controller: null, message: '' },
  selectedBox: null,     // [x, y] of the box picked with the mouse, to push to the next clicked square
  touch: null,           // {x, y, cell} where a finger went down on the board, until it lifts
  zoom: 'fit',           // 'fit' (the board fills the window's width) or a factor of the natural size
  swiped: false,         // the last touch was a swipe or a drag: the click after it is not a click
  browserStart: 0,       // the first level (position) the level browser shows
  lurdMessage: '',       // what became of a pasted LURD
  lurdError: false,      // whether that is a refusal (shown as an error)
  exportMessage: '',
  shareUrl: '',
  root: null,            // the page's DOM while mounted
  ui: null,              // references to the controls that render() updates
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
    state.playback.pause();
    state.root = null;
    state.ui = null;
  };
}

async function startPage(params) {
  try {
    if (state.sets.length === 0 || !state.solveJob) {
      [state.sets, state.solveJob] = await Promise.all([api('sokoban/sets'), jobInfo('sokoban_solve')]);
      renderSetOptions();
    }
    buildSolveForm();
    const sharedXsb = params.get('xsb');
    const last = lastChoice();
    if (sharedXsb) {
      if (state.ui) state.ui.pasteArea.value = sharedXsb;
      await loadPasted(sharedXsb, { fromLink: true, title: params.get('title') });
    } else if (params.get('set')) {
      // The route names the set and level (a reload, a bookmark).
      await chooseSet(params.get('set'), Math.max(0, Number(params.get('level') ?? 1) - 1));
    } else if (!state.level) {
      const known = last && state.sets.some((set) => set.id === last.setId);
      await chooseSet(known ? last.setId : state.setId, known ? last.levelPosition : 0);
    }
  } catch (error) {
    state.levelError = error;
  }
  render();
}

function buildPage() {
  const ui = {};
  state.ui = ui;

  ui.setSelect = el('select', { id: 'sokoban-set', onchange: () => chooseSet(ui.setSelect.value) });
  ui.levelSelect = el('select', { id: 'sokoban-level', onchange: () => chooseLevel(Number(ui.levelSelect.value)) });
  ui.pasteArea = el('textarea', {
    id: 'sokoban-paste', rows: 8, cols: 24, spellcheck: 'false', class: 'xsb-input',
    'aria-describedby': 'sokoban-paste-error',
  });
  ui.fileInput = el('input', { id: 'sokoban-file', type: 'file', accept: '.xsb,.txt,.sok,text/plain', onchange: onFileChosen });
  ui.loadButton = el('button', { type: 'button', onclick: () => loadPasted(ui.pasteArea.value) }, 'Load');
  ui.levelError = el('p', { id: 'sokoban-paste-error', class: 'error', role: 'alert' });
  ui.levelTitle = el('p', { class: 'level-title' });
  ui.previousLevel = el('button', { type: 'button', onclick: () => goToLevel(-1), 'aria-keyshortcuts': 'P PageUp' }, 'Previous level');
  ui.nextLevel = el('button', { type: 'button', onclick: () => goToLevel(1), 'aria-keyshortcuts': 'N PageDown' }, 'Next level');
  ui.levelRecord = el('p', { class: 'note level-record' });
  ui.replayBest = el('button', { type: 'button', onclick: replayBest }, 'Replay my best solution');
  ui.browserList = el('ul', { class: 'level-browser', 'aria-label': 'Level browser' });
  ui.browserEarlier = el('button', { type: 'button', onclick: () => moveBrowser(-1) }, 'Earlier levels');
  ui.browserLater = el('button', { type: 'button', onclick: () => moveBrowser(1) }, 'Later levels');
  ui.browserRange = el('span', { class: 'note' });

  const levelsSection = el('section', { class: 'panel levels', 'aria-labelledby': 'levels-heading' },
    el('h2', { id: 'levels-heading' }, 'Levels'),
    field('Level set', ui.setSelect),
    field('Level', ui.levelSelect),
    el('div', { class: 'buttons' }, ui.previousLevel, ui.nextLevel),
    ui.levelTitle,
    ui.levelRecord,
    el('div', { class: 'buttons' }, ui.replayBest),
    field('Paste XSB', ui.pasteArea),
    ui.levelError,
    field('Open XSB file', ui.fileInput),
    el('div', { class: 'buttons' }, ui.loadButton),
  );

  ui.boardHolder = el('div', {
    class: 'board-holder', tabindex: 0, role: 'application', 'aria-label': 'Board',
    'aria-describedby': 'board-help', onclick: onBoardClick,
    onpointerdown: onBoardPointerDown, onpointerup: onBoardPointerUp, onpointercancel: () => { state.touch = null; },
  });
  ui.movesOutput = el('output', { id: 'moves-count', 'aria-live': 'off' }, '0');
  ui.pushesOutput = el('output', { id: 'pushes-count', 'aria-live': 'off' }, '0');
  ui.solvedStatus = el('p', { class: 'solved', role: 'status' });
  ui.solvedNext = el('button', { type: 'button', class: 'solved-next', onclick: () => goToLevel(1) }, 'Play next level');
  ui.playMessage = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.undoButton = el('button', { type: 'button', onclick: () => queueAction(undo), 'aria-keyshortcuts': 'Control+Z' }, 'Undo');
  ui.redoButton = el('button', { type: 'button', onclick: () => queueAction(redo), 'aria-keyshortcuts': 'Control+Y Control+Shift+Z' }, 'Redo');
  ui.restartButton = el('button', { type: 'button', onclick: () => queueAction(restart) }, 'Restart');
  ui.saveButton = el('button', { type: 'button', onclick: saveSnapshot }, 'Save position');
  ui.restoreButton = el('button', { type: 'button', onclick: () => queueAction(restoreSnapshot) }, 'Back to saved position');
  ui.zoomOut = el('button', { type: 'button', onclick: () => zoomBy(1 / 1.25) }, 'Zoom out');
  ui.zoomIn = el('button', { type: 'button', onclick: () => zoomBy(1.25) }, 'Zoom in');
  ui.zoomFit = el('button', { type: 'button', onclick: () => { state.zoom = 'fit'; render(); } }, 'Fit to window');
  ui.deadlockBox = el('input', {
    id: 'show-deadlocks', type: 'checkbox', checked: state.showDeadlocks,
    onchange: () => { state.showDeadlocks = ui.deadlockBox.checked; render(); },
  });

  const playSection = el('section', { class: 'panel play', 'aria-labelledby': 'play-heading' },
    el('h2', { id: 'play-heading' }, 'Play'),
    ui.boardHolder,
    el('p', { id: 'board-help', class: 'help' },
      'Arrow keys or WASD move, Ctrl+Z undoes, Ctrl+Y redoes; click a floor cell to walk there, '
      + 'or a box and then a square to push it there (on a touch screen: swipe to step, drag a box '
      + 'to push it); N and P go to the next and previous level.'),
    el('div', { class: 'counters' },
      el('span', { class: 'counter' }, el('label', { for: 'moves-count' }, 'Moves'), ' ', ui.movesOutput),
      el('span', { class: 'counter' }, el('label', { for: 'pushes-count' }, 'Pushes'), ' ', ui.pushesOutput)),
    el('div', { class: 'solved-row' }, ui.solvedStatus, ui.solvedNext),
    ui.moveRow = el('div', { class: 'buttons' }, ui.undoButton, ui.redoButton, ui.restartButton),
    el('div', { class: 'buttons' }, ui.saveButton, ui.restoreButton),
    el('div', { class: 'buttons' }, ui.zoomOut, ui.zoomIn, ui.zoomFit),
    el('div', { class: 'check' }, ui.deadlockBox, el('label', { for: 'show-deadlocks' }, 'Show deadlocks')),
    ui.deadlockLegend = el('p', { class: 'help', id: 'deadlock-legend' },
      'Shaded squares are dead: a box pushed onto one can never reach a goal. '
      + 'An outlined box is frozen: it can never move again and is not on a goal.'),
    ui.playMessage,
  );

  // The solver's settings arrive with the job's schema (buildSolveForm).
  ui.solveFields = el('div', { class: 'solve-fields' }, el('p', { class: 'note' }, 'Loading the settings…'));
  ui.solveButton = el('button', { type: 'button', onclick: startSolve }, 'Solve');
  ui.stopButton = el('button', { type: 'button', onclick: stopSolve }, 'Stop');
  ui.hintButton = el('button', { type: 'button', onclick: askHint }, 'Hint');
  ui.solveStatus = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.solveError = el('p', { class: 'error', role: 'alert' });
  ui.hintMessage = el('p', { class: 'note', 'aria-live': 'polite' });
  ui.replayPlay = el('button', { type: 'button', onclick: () => state.playback.toggle() }, 'Play');
  ui.replayBack = el('button', { type: 'button', onclick: () => state.playback.step(-1) }, 'Step back');
  ui.replayForward = el('button', { type: 'button', onclick: () => state.playback.step(1) }, 'Step forward');
  ui.speedSelect = el('select', {
    id: 'replay-speed', onchange: () => { state.playback.speedMs = Number(ui.speedSelect.value); },
  }, REPLAY_SPEEDS.map((speed) => el('option', { value: String(speed.ms), selected: speed.ms === state.playback.speedMs }, speed.label)));
  ui.scrubber = el('input', {
    id: 'replay-position', type: 'range', min: 0, max: 0, step: 1, value: '0',
    oninput: () => state.playback.scrubTo(Number(ui.scrubber.value)),
  });
  ui.replayPosition = el('span', { class: 'note' });
  ui.lurdArea = el('textarea', {
    id: 'sokoban-lurd', rows: 3, cols: 24, spellcheck: 'false', class: 'xsb-input',
    placeholder: 'e.g. rrUlDD (upper case pushes)',
  });
  ui.lurdButton = el('button', { type: 'button', onclick: replayPastedLurd }, 'Replay LURD');
  ui.lurdMessage = el('p', { class: 'note', 'aria-live': 'polite' });

  const solveSection = el('section', { class: 'panel solve', 'aria-labelledby': 'solve-heading' },
    el('h2', { id: 'solve-heading' }, 'Solve'),
    ui.solveFields,
    el('div', { class: 'buttons' }, ui.solveButton, ui.stopButton, ui.hintButton),
    ui.solveStatus, ui.solveError, ui.hintMessage,
  );
  // The replay sits under the board it plays on, after the move buttons (on a phone, the
  // board and its replay fit one screen).
  ui.moveRow.after(el('fieldset', { class: 'replay' },
    el('legend', {}, 'Replay of the solution'),
    el('div', { class: 'buttons' }, ui.replayBack, ui.replayPlay, ui.replayForward),
    el('div', { class: 'row' }, field('Speed', ui.speedSelect), field('Replay position', ui.scrubber)),
    ui.replayPosition,
    field('Paste a LURD solution', ui.lurdArea),
    el('div', { class: 'buttons' }, ui.lurdButton),
    ui.lurdMessage));

  ui.shareOutput = el('input', { id: 'share-url', type: 'text', readonly: true, class: 'share-url' });
  ui.exportMessage = el('p', { class: 'note', 'aria-live': 'polite' });
  const exportSection = el('section', { class: 'panel export', 'aria-labelledby': 'export-heading' },
    el('h2', { id: 'export-heading' }, 'Export'),
    el('div', { class: 'buttons' },
      el('button', { type: 'button', onclick: () => exportText('xsb', 'copy') }, 'Copy XSB'),
      el('button', { type: 'button', onclick: () => exportText('xsb', 'download') }, 'Download XSB'),
      el('button', { type: 'button', onclick: () => exportText('lurd', 'copy') }, 'Copy LURD'),
      el('button', { type: 'button', onclick: () => exportText('lurd', 'download') }, 'Download LURD'),
      el('button', { type: 'button', onclick: shareLink }, 'Share link')),
    field('Link to this level', ui.shareOutput),
    ui.exportMessage,
  );

  // On a phone the thumbnails would push the levels, the solver and the replay far below the
  // board: they start folded there.
  const phone = window.matchMedia('(max-width: 600px)').matches;
  const browserSection = el('section', { class: 'panel browser', 'aria-labelledby': 'browser-heading' },
    el('h2', { id: 'browser-heading' }, 'Level browser'),
    el('details', { class: 'browser-fold', open: !phone },
      el('summary', {}, 'Thumbnails of the set'),
      el('div', { class: 'buttons' }, ui.browserEarlier, ui.browserLater, ui.browserRange),
      ui.browserList),
  );

  renderSetOptions();
  return el('div', { class: 'page sokoban-page' },
    el('h1', {}, 'Sokoban'),
    el('div', { class: 'columns' },
      el('div', { class: 'column-main' }, playSection, browserSection),
      el('div', { class: 'column-side' }, levelsSection, solveSection, exportSection)));
}

// ---------------------------------------------------------------------------------------------
// Rendering: the skeleton stays, render() updates it from `state`

function render() {
  const ui = state.ui;
  if (!ui) return;
  const shown = shownState();
  const replaying = state.replay !== null;

  ui.deadlockLegend.hidden = !state.showDeadlocks;
  if (ui.drawnState !== shown || ui.drawnDeadlocks !== state.showDeadlocks || ui.drawnSelection !== state.selectedBox
    || ui.drawnZoom !== state.zoom || !shown) {
    ui.drawnState = shown;
    ui.drawnDeadlocks = state.showDeadlocks;
    ui.drawnSelection = state.selectedBox;
    ui.drawnZoom = state.zoom;
    const cellPixels = state.zoom === 'fit' ? 56 : Math.round(56 * state.zoom);
    ui.boardHolder.classList.toggle('fit', state.zoom === 'fit');
    ui.boardHolder.replaceChildren(shown
      ? drawBoard(shown, { showDeadlocks: state.showDeadlocks, cellPixels, selected: state.selectedBox })
      : el('p', { class: 'note' }, state.levelError ? 'No level loaded.' : 'Loading…'));
  }
  ui.movesOutput.value = String(shown?.moves ?? 0);
  ui.pushesOutput.value = String(shown?.pushes ?? 0);
  ui.solvedStatus.textContent = shown?.solved ? 'Solved!' : '';
  const hasNext = state.levelPosition < state.levels.length - 1;
  ui.solvedNext.hidden = !(shown?.solved && hasNext);
  ui.previousLevel.disabled = state.levelPosition === 0;
  ui.nextLevel.disabled = !hasNext;
  ui.levelRecord.textContent = recordText(state.level);
  ui.replayBest.disabled = !(state.level && levelRecord(state.level.xsb)?.lurd);
  ui.lurdMessage.textContent = state.lurdMessage;
  ui.lurdMessage.className = state.lurdError ? 'error' : 'note';
  ui.lurdMessage.setAttribute('role', state.lurdError ? 'alert' : 'status');
  ui.playMessage.textContent = state.playMessage;

  ui.levelTitle.textContent = state.level ? `Level: ${state.level.title}` : '';
  ui.levelError.textContent = state.levelError ? state.levelError.message : '';
  ui.pasteArea.toggleAttribute('aria-invalid', Boolean(state.levelError?.line));
  if (ui.setSelect.value !== state.setId) ui.setSelect.value = state.setId;
  renderLevelOptions();
  renderBrowser();

  ui.undoButton.disabled = !replaying && state.cursor === 0;
  ui.redoButton.disabled = replaying || state.cursor >= state.history.length - 1;
  ui.restartButton.disabled = !state.level;
  ui.saveButton.disabled = !state.level || state.history.length === 0;
  ui.restoreButton.disabled = !(state.level && savedPosition(state.level.xsb) !== null);
  ui.zoomFit.disabled = state.zoom === 'fit';

  const solving = state.solve.running;
  ui.solveButton.disabled = solving || !state.level || !ui.solveForm;
  ui.stopButton.disabled = !solving;
  ui.hintButton.disabled = !state.level;
  ui.hintButton.textContent = state.hint.pending ? 'Stop hint' : 'Hint';
  ui.solveStatus.textContent = solveStatusText();
  ui.solveError.textContent = state.solve.error ? state.solve.error.message : '';
  ui.hintMessage.textContent = state.hint.message;

  const replay = state.replay;
  const length = replay ? replay.solution.length : 0;
  const position = replay ? state.playback.position : 0;
  for (const control of [ui.replayPlay, ui.replayBack, ui.replayForward, ui.scrubber]) control.disabled = !replay;
  ui.replayPlay.textContent = replay && state.playback.playing ? 'Pause' : 'Play';
  ui.scrubber.max = String(length);
  ui.scrubber.value = String(position);
  ui.scrubber.setAttribute('aria-valuetext', replay ? `move ${position} of ${length}` : 'no solution yet');
  ui.replayPosition.textContent = replay ? `Move ${position} of ${length}` : 'Solve the level to replay its solution.';

  ui.exportMessage.textContent = state.exportMessage;
  ui.shareOutput.value = state.shareUrl;
}

function renderSetOptions() {
  const ui = state.ui;
  if (!ui) return;
  const options = state.sets.map((set) => el('option', { value: set.id }, `${set.name} (${set.levels})`));
  if (state.setId === PASTED_SET) options.push(el('option', { value: PASTED_SET }, 'Pasted levels'));
  ui.setSelect.replaceChildren(...options);
  ui.setSelect.value = state.setId;
}

function renderLevelOptions() {
  const ui = state.ui;
  const signature = `${state.setId}:${state.levels.length}`;
  if (ui.levelSelect.dataset.signature !== signature) {
    ui.levelSelect.dataset.signature = signature;
    ui.levelSelect.replaceChildren(...state.levels.map((level, position) => el('option', { value: String(position) },
      levelTitle(level) !== String(level.index) ? `${level.index}. ${level.title}` : String(level.index))));
  }
  ui.levelSelect.value = String(state.levelPosition);
}

/** What the browser keeps of a level: "Solved: best 33 moves (10 pushes), 10 pushes (33 moves)." */
function recordText(level) {
  const record = level && levelRecord(level.xsb);
  if (!record?.solved) return level ? 'Not solved yet.' : '';
  const pushes = record.bestPushes === record.bestMovesPushes && record.bestPushesMoves === record.bestMoves
    ? '' : `; fewest pushes ${record.bestPushes} (${record.bestPushesMoves} moves)`;
  return `Solved: best ${record.bestMoves} moves, ${record.bestMovesPushes} pushes${pushes}.`;
}

/** The level browser: a page of thumbnails of the set's levels, each marked when solved. */
function renderBrowser() {
  const ui = state.ui;
  const start = state.browserStart;
  const end = Math.min(state.levels.length, start + BROWSER_PAGE);
  const records = state.levels.slice(start, end).map((level) => levelRecord(level.xsb));
  const signature = `${state.setId}:${state.levels.length}:${start}:${state.levelPosition}:${JSON.stringify(records)}`;
  if (ui.browserList.dataset.signature === signature) return;
  ui.browserList.dataset.signature = signature;
  ui.browserRange.textContent = state.levels.length ? `Levels ${start + 1}–${end} of ${state.levels.length}` : '';
  ui.browserEarlier.disabled = start === 0;
  ui.browserLater.disabled = end >= state.levels.length;
  ui.browserList.replaceChildren(...state.levels.slice(start, end).map((level, i) => {
    const position = start + i;
    const record = records[i];
    const title = levelTitle(level);
    const name = title !== String(level.index) ? `Level ${level.index} (${title})` : `Level ${level.index}`;
    const status = record?.solved ? `solved, best ${record.bestMoves} moves, ${record.bestMovesPushes} pushes` : 'not solved';
    const thumbnail = drawBoard(stateFromXsb(level.xsb), { showDeadlocks: false, cellPixels: 9, label: '' });
    thumbnail.setAttribute('aria-hidden', 'true');
    return el('li', {},
      el('button', {
        type: 'button', class: `level-thumb${record?.solved ? ' is-solved' : ''}`,
        'aria-label': `${name}: ${status}`, 'aria-current': position === state.levelPosition ? 'true' : null,
        onclick: () => chooseLevel(position),
      },
      thumbnail,
      el('span', { class: 'thumb-caption' }, String(level.index),
        record?.solved ? el('span', { class: 'thumb-solved' }, ` ✓ ${record.bestMoves}/${record.bestMovesPushes}`) : null)));
  }));
}

function moveBrowser(direction) {
  const last = Math.max(0, state.levels.length - 1);
  state.browserStart = Math.min(Math.floor(last / BROWSER_PAGE) * BROWSER_PAGE,
    Math.max(0, state.browserStart + direction * BROWSER_PAGE));
  render();
}

/** The state on screen: the replay's frame while a replay is open, else the play position. */
function shownState() {
  if (state.replay?.shown) return state.replay.shown;
  return state.history[state.cursor]?.state ?? null;
}

function currentMoves() {
  return state.history[state.cursor]?.moves ?? '';
}

function solveStatusText() {
  const solve = state.solve;
  if (solve.running) {
    const progress = solve.progress;
    const limit = progress?.time_limit_s ? ` of ${progress.time_limit_s} s` : '';
    const expanded = progress ? `, ${progress.expanded.toLocaleString()} positions expanded` : '';
    return `Solving… ${solve.elapsed.toFixed(1)} s${limit}${expanded}`;
  }
  return solve.message;
}

// ---------------------------------------------------------------------------------------------
// Levels

/** A level record's title: its own (`; title` comment) or its number in the set. */
function levelTitle(level) {
  return level.title ?? String(level.index);
}

async function chooseSet(setId, position = 0) {
  if (setId === PASTED_SET) return;
  try {
    const set = await api(`sokoban/sets/${encodeURIComponent(setId)}`);
    state.setId = setId;
    state.levels = set.levels;
    state.levelError = null;
    renderSetOptions();
    await chooseLevel(Math.min(position, set.levels.length - 1));
  } catch (error) {
    state.levelError = error;
    render();
  }
}

async function chooseLevel(position) {
  const level = state.levels[position];
  if (!level) return;
  state.levelPosition = position;
  state.browserStart = Math.floor(position / BROWSER_PAGE) * BROWSER_PAGE;
  if (state.setId !== PASTED_SET) {
    keepChoice(state.setId, position);
    // The route names the set and level, so a reload or a bookmark comes back here.
    if (state.root) replaceRoute('sokoban', { set: state.setId, level: level.index });
  }
  await openLevel({ title: levelTitle(level), xsb: level.xsb });
}

/** The next (+1) or previous (−1) level of the set. */
function goToLevel(direction) {
  const position = state.levelPosition + direction;
  if (position < 0 || position >= state.levels.length) return;
  chooseLevel(position).then(() => state.ui?.boardHolder.focus());
}

async function loadPasted(text, { fromLink = false, title = null } = {}) {
  try {
    const { levels } = await api('sokoban/parse', { xsb: text });
    state.levelError = null;
    state.setId = PASTED_SET;
    // A shared link names its level's title.
    if (title && levels.length === 1 && !levels[0].title) levels[0].title = title;
    state.levels = levels;
    state.levelPosition = 0;
    state.browserStart = 0;
    renderSetOptions();
    if (!fromLink && state.root) replaceRoute('sokoban');
    await openLevel({ title: levelTitle(levels[0]), xsb: levels[0].xsb });
  } catch (error) {
    state.levelError = error;
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

/** Shows a level from its start, dropping moves, replay and results of the previous one. */
async function openLevel(level) {
  stopSolve();
  closeReplay();
  state.level = level;
  state.history = [];
  state.cursor = 0;
  state.playMessage = '';
  state.hint.message = '';
  state.solve.message = '';
  state.solve.error = null;
  state.shareUrl = '';
  state.selectedBox = null;
  state.lurdMessage = '';
  state.lurdError = false;
  render();
  try {
    const answer = await api('sokoban/play', { xsb: level.xsb, moves: '', action: null });
    if (state.level !== level) return;
    state.history = [{ moves: answer.moves, state: answer.state }];
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

/** Leaving a replay to play on: its frame becomes a new position on the undo stack. */
function takeOverReplay() {
  const replay = state.replay;
  if (!replay) return;
  const frame = replay.shown;
  const moves = replay.solution.slice(0, replay.shownPosition);
  closeReplay();
  if (frame && moves !== currentMoves()) pushPosition(moves, frame);
}

function pushPosition(moves, shown) {
  state.history = state.history.slice(0, state.cursor + 1);
  state.history.push({ moves, state: shown });
  state.cursor = state.history.length - 1;
}

async function playAction(action) {
  if (!state.level || state.history.length === 0) return;
  takeOverReplay();
  const level = state.level;
  const answer = await api('sokoban/play', { xsb: level.xsb, moves: currentMoves(), action });
  if (state.level !== level) return;
  if (answer.applied) {
    pushPosition(answer.moves, answer.state);
    state.playMessage = '';
    if (answer.state.solved) recordSolved(level.xsb, answer.state.moves, answer.state.pushes, answer.moves);
  } else if (action.push_box) {
    state.playMessage = 'No way to push that box there.';
  } else {
    state.playMessage = action.walk_to ? 'No path there.' : 'Blocked.';
  }
  render();
}

function step(direction) {
  return queueAction(() => playAction({ step: direction }));
}

async function undo() {
  if (state.replay) { takeOverReplay(); }
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

/** Keeps the position on screen (its moves) for this level, in the browser. */
function saveSnapshot() {
  if (!state.level) return;
  takeOverReplay();
  savePosition(state.level.xsb, currentMoves());
  state.playMessage = `Position saved (${shownState()?.moves ?? 0} moves).`;
  render();
}

/** Goes back to the saved position: the server replays its moves; it joins the undo stack. */
async function restoreSnapshot() {
  const level = state.level;
  const moves = level && savedPosition(level.xsb);
  if (moves === null || moves === undefined) return;
  takeOverReplay();
  const answer = await api('sokoban/play', { xsb: level.xsb, moves, action: null });
  if (state.level !== level) return;
  pushPosition(answer.moves, answer.state);
  state.playMessage = `Back to the saved position (${answer.state.moves} moves).`;
  render();
}

/** Zooms the board by `factor` from its size now (from the fitted size, the natural one). */
function zoomBy(factor) {
  const now = state.zoom === 'fit' ? 1 : state.zoom;
  state.zoom = Math.min(3, Math.max(0.3, now * factor));
  render();
}

async function restart() {
  takeOverReplay();
  const start = state.history[0];
  if (start && state.cursor !== 0) pushPosition(start.moves, start.state);
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
  if (letter === 'n' || letter === 'PageDown') { event.preventDefault(); goToLevel(1); return; }
  if (letter === 'p' || letter === 'PageUp') { event.preventDefault(); goToLevel(-1); return; }
  const direction = KEY_DIRECTIONS[letter];
  if (!direction) return;
  event.preventDefault();
  step(direction);
}

/** A LURD string in words: "ruuL" -> "walk right, up, up; push left". */
export function spellLurd(lurd) {
  const names = { l: 'left', u: 'up', r: 'right', d: 'down' };
  const runs = [];
  for (const letter of lurd) {
    const push = letter === letter.toUpperCase();
    const verb = push ? 'push' : 'walk';
    const last = runs[runs.length - 1];
    if (last && last.verb === verb) last.directions.push(names[letter.toLowerCase()]);
    else runs.push({ verb, directions: [names[letter.toLowerCase()]] });
  }
  return runs.map((run) => `${run.verb} ${run.directions.join(', ')}`).join('; ');
}

/**
 * A click on the board: on a box, picks it (a second click on it lets go); on any other square,
 * pushes the picked box there, else walks there. The server finds the pushes and the walk.
 */
function onBoardClick(event) {
  if (state.swiped) { state.swiped = false; return; }
  const svg = state.ui.boardHolder.querySelector('svg');
  if (!svg) return;
  const cell = cellAt(svg, event.clientX, event.clientY);
  if (!cell) return;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const onBox = (shownState()?.boxes ?? []).some((box) => same(box, cell));
  const picked = state.selectedBox;
  if (onBox) {
    state.selectedBox = same(picked, cell) ? null : cell;
    state.playMessage = state.selectedBox ? 'Box picked: click the square to push it to.' : '';
    render();
    return;
  }
  state.selectedBox = null;
  if (picked) queueAction(() => playAction({ push_box: { from: picked, to: cell } }));
  else queueAction(() => playAction({ walk_to: cell }));
}

/** A finger down on the board: remembered until it lifts (a swipe moves, a drag pushes a box). */
function onBoardPointerDown(event) {
  if (event.pointerType !== 'touch') return;
  const svg = state.ui.boardHolder.querySelector('svg');
  state.touch = { x: event.clientX, y: event.clientY, cell: svg ? cellAt(svg, event.clientX, event.clientY) : null };
}

/**
 * A finger lifted: a drag that started on a box pushes it to where the finger lifted (the server
 * finds the pushes); a swipe elsewhere is one step in its direction; a tap is left to the click.
 */
function onBoardPointerUp(event) {
  const touch = state.touch;
  state.touch = null;
  if (!touch || event.pointerType !== 'touch') return;
  const dx = event.clientX - touch.x;
  const dy = event.clientY - touch.y;
  if (Math.hypot(dx, dy) < 24) return;
  state.swiped = true;
  setTimeout(() => { state.swiped = false; }, 400);
  const svg = state.ui.boardHolder.querySelector('svg');
  const end = svg ? cellAt(svg, event.clientX, event.clientY) : null;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const fromBox = (shownState()?.boxes ?? []).some((box) => same(box, touch.cell));
  state.selectedBox = null;
  if (fromBox && end && !same(end, touch.cell)) {
    queueAction(() => playAction({ push_box: { from: touch.cell, to: end } }));
  } else if (Math.abs(dx) > Math.abs(dy)) {
    step(dx > 0 ? 'r' : 'l');
  } else {
    step(dy > 0 ? 'd' : 'u');
  }
}

// ---------------------------------------------------------------------------------------------
// Solve, hint and replay

/** The solver's settings, built from `sokoban_solve`'s schema. */
function buildSolveForm() {
  const ui = state.ui;
  if (!ui || !state.solveJob || ui.solveForm) return;
  ui.solveForm = buildForm(state.solveJob, {
    idPrefix: 'solve-', exclude: PAGE_FIELDS, values: state.solveValues,
    onChange: (form) => {
      try { state.solveValues = form.values(); } catch { /* shown when the solve starts */ }
    },
  });
  ui.solveFields.replaceChildren(ui.solveForm.element);
}

async function startSolve() {
  if (!state.level || state.solve.running || !state.ui?.solveForm) return;
  const ui = state.ui;
  const level = state.level;
  let settings;
  try {
    settings = ui.solveForm.request();
  } catch (error) {
    state.solve.error = error;
    render();
    return;
  }
  const controller = new AbortController();
  const solve = state.solve;
  Object.assign(solve, {
    running: true, controller, startedAt: performance.now(), elapsed: 0, progress: null,
    message: '', error: null, result: null,
  });
  const ticker = setInterval(() => { solve.elapsed = (performance.now() - solve.startedAt) / 1000; render(); }, 200);
  // The level on screen, and only the settings changed from the job's defaults.
  const request = { job: 'sokoban_solve', xsb: level.xsb, level: 1, ...settings };
  render();
  // Solve is disabled while it runs: keep the keyboard on the page (Stop), not on its body.
  if (document.activeElement === ui.solveButton || document.activeElement === document.body) ui.stopButton.focus();
  try {
    const end = await streamJob(request, (name, data) => onSolveEvent(level, name, data), controller.signal);
    if (!solve.result && !solve.error) {
      solve.message = end.reason === 'stopped' ? 'Stopped.' : `Ended (${end.reason}) without a result.`;
    } else if (end.reason === 'stopped' && !solve.result) {
      solve.message = 'Stopped.';
    }
  } catch (error) {
    solve.error = error;
  } finally {
    clearInterval(ticker);
    solve.running = false;
    solve.controller = null;
    render();
    // Stop is disabled now: the board takes the keyboard (replay or play on).
    if (state.ui && (document.activeElement === state.ui.stopButton || document.activeElement === document.body)) {
      state.ui.boardHolder.focus();
    }
  }
}

function onSolveEvent(level, name, data) {
  const solve = state.solve;
  if (state.level !== level) return;
  // The search's own progress (positions expanded, its time limit); not the count of levels done.
  if (name === 'progress' && data.expanded !== undefined) solve.progress = data;
  else if (name === 'error') solve.error = new Error(data.error ?? String(data));
  else if (name === 'result') {
    solve.result = data;
    if (data.solved && data.solution !== null && data.solution !== undefined) {
      solve.message = `Solved by ${data.algo ?? 'the solver'} in ${Number(data.time_s ?? 0).toFixed(2)} s: `
        + `${data.moves} moves, ${data.pushes} pushes${data.nodes ? `, ${data.nodes.toLocaleString()} nodes` : ''}.`;
      openReplay(data.solution);
    } else {
      solve.message = `No solution found (${data.stop ?? 'stopped'}).`;
    }
  }
  render();
}

function stopSolve() {
  state.solve.controller?.abort();
}

/** Asks the server for a hint; while one is being looked for, the same button cancels it (the
 * request is dropped, which stops the server's search). */
async function askHint() {
  if (state.hint.pending) {
    state.hint.controller?.abort();
    return;
  }
  if (!state.level) return;
  takeOverReplay();
  const level = state.level;
  const moves = currentMoves();
  const controller = new AbortController();
  state.hint = { pending: true, controller, message: 'Looking for a hint…' };
  render();
  try {
    const answer = await api('sokoban/hint', { xsb: level.xsb, moves }, { signal: controller.signal });
    if (state.level !== level) return;
    if (answer.hint) {
      state.hint.message = `Hint: ${answer.hint} (${spellLurd(answer.hint)}).`;
      await queueAction(async () => {
        const played = await api('sokoban/play', { xsb: level.xsb, moves: moves + answer.hint, action: null });
        if (state.level === level) pushPosition(played.moves, played.state);
      });
    } else {
      state.hint.message = `No hint: ${answer.reason ?? 'no solution found'}.`;
    }
  } catch (error) {
    state.hint.message = controller.signal.aborted ? 'Hint stopped.' : `Hint failed: ${error.message}`;
  } finally {
    state.hint.pending = false;
    state.hint.controller = null;
    render();
  }
}

/**
 * A replay of `solution` from the level's start; frames are fetched from the server. `pasted`:
 * the player's own solution (a solved last frame counts as the level solved).
 */
function openReplay(solution, { pasted = false } = {}) {
  closeReplay();
  const replay = { solution, frames: [], shown: state.history[0]?.state ?? null, shownPosition: 0, level: state.level, pasted };
  state.replay = replay;
  prefetchFrames(replay);
  state.playback.play();
}

function closeReplay() {
  if (!state.replay) return;
  state.playback.reset();
  state.replay = null;
}

function frameAt(replay, position) {
  if (!replay.frames[position]) {
    replay.frames[position] = api('sokoban/play', {
      xsb: replay.level.xsb, moves: replay.solution.slice(0, position), action: null,
    }).then((answer) => answer.state);
    replay.frames[position].catch(() => { replay.frames[position] = null; });
  }
  return replay.frames[position];
}

/** Fetches the frames ahead of time, a few requests at once. */
async function prefetchFrames(replay) {
  let next = 0;
  const worker = async () => {
    while (state.replay === replay && next <= replay.solution.length) {
      const position = next++;
      await frameAt(replay, position).catch(() => {});
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
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

/** Replays the best solution this browser has kept for the level. */
function replayBest() {
  const record = state.level && levelRecord(state.level.xsb);
  if (!record?.lurd) return;
  state.lurdError = false;
  state.lurdMessage = `Replaying your best: ${record.bestMoves} moves, ${record.bestMovesPushes} pushes.`;
  openReplay(record.lurd, { pasted: true });
  render();
}

/** Replays a pasted LURD from the level's start, once the server has checked that it replays. */
async function replayPastedLurd() {
  const level = state.level;
  const text = state.ui?.lurdArea.value.replace(/\s+/g, '') ?? '';
  if (!level) return;
  state.lurdError = false;
  if (!text) {
    state.lurdMessage = 'Paste a LURD first (l u r d moves, L U R D pushes).';
    render();
    return;
  }
  try {
    // The server's replay: a wrong letter or an illegal step is refused with its number.
    const end = await api('sokoban/play', { xsb: level.xsb, moves: text, action: null });
    if (state.level !== level) return;
    // A pasted solution is watched, not counted as the player's own solve.
    state.lurdMessage = `Replaying ${end.state.moves} moves, ${end.state.pushes} pushes`
      + `${end.state.solved ? ' (it solves the level)' : ' (it does not solve the level)'}.`;
    openReplay(end.moves, { pasted: true });
  } catch (error) {
    state.lurdError = true;
    state.lurdMessage = `That LURD does not replay: ${error.message.replace(/^the moves do not replay: /, '')}`;
  }
  render();
}

// ---------------------------------------------------------------------------------------------
// Export

function exportText(kind, how) {
  if (!state.level) return;
  const name = slug(state.level.title);
  let text;
  if (kind === 'xsb') {
    text = `; ${state.level.title}\n${state.level.xsb}\n`;
  } else {
    text = state.replay ? state.replay.solution : currentMoves();
    if (!text) {
      state.exportMessage = 'No moves yet: play or solve first.';
      render();
      return;
    }
  }
  const what = kind === 'xsb' ? 'XSB' : 'LURD';
  if (how === 'download') {
    downloadText(`sokoban-${name}.${kind}`, text.endsWith('\n') ? text : `${text}\n`);
    state.exportMessage = `${what} downloaded.`;
    render();
  } else {
    copyText(text).then((copied) => {
      state.exportMessage = copied ? `${what} copied to the clipboard.` : `The browser refused the clipboard; ${what}: ${text}`;
      render();
    });
  }
}

function shareLink() {
  if (!state.level) return;
  state.shareUrl = pageUrl('sokoban', { xsb: state.level.xsb, title: state.level.title });
  copyText(state.shareUrl).then((copied) => {
    state.exportMessage = copied
      ? 'Link copied. Whoever opens it needs the token of their own `puzzle serve`.'
      : 'Copy the link from the field below.';
    render();
    if (!copied) state.ui?.shareOutput.select();
  });
  render();
}
