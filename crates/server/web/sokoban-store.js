// What the Sokoban player keeps across visits, in the browser's local storage: per level whether
// it was solved and the best moves and pushes (with the solution that reached them) and a saved
// position, and the set and level chosen last. Levels are keyed by their XSB text, so a level keeps its record
// whichever set it was opened from. A leaf module; it knows no rule (the server says "solved").

const PROGRESS_KEY = 'puzzle-search-sokoban-progress';
const LAST_KEY = 'puzzle-search-sokoban-last';
const SAVED_KEY = 'puzzle-search-sokoban-saved';

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or refused */ }
}

/** A short key for a level's XSB text (FNV-1a, 32 bits, as hex, with the text's length). */
export function levelKey(xsb) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < xsb.length; i++) {
    hash ^= xsb.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16).padStart(8, '0')}-${xsb.length}`;
}

/** Every level's record, read once per visit and kept up to date by recordSolved. */
let progress = null;

function allRecords() {
  progress ??= read(PROGRESS_KEY, {});
  return progress;
}

/** The record of a level: {solved, bestMoves, bestMovesPushes, bestPushes, bestPushesMoves, lurd} or null. */
export function levelRecord(xsb) {
  return allRecords()[levelKey(xsb)] ?? null;
}

/**
 * Records a solution the server found solved: keeps the fewest moves (ties: fewer pushes) and
 * the fewest pushes (ties: fewer moves) seen so far. Returns the updated record.
 */
export function recordSolved(xsb, moves, pushes, lurd) {
  // Another tab may have recorded levels since: start from what is stored.
  const all = read(PROGRESS_KEY, {});
  progress = all;
  const key = levelKey(xsb);
  const old = all[key];
  const record = old ? { ...old } : { solved: true };
  record.solved = true;
  if (!old || moves < old.bestMoves || (moves === old.bestMoves && pushes < old.bestMovesPushes)) {
    record.bestMoves = moves;
    record.bestMovesPushes = pushes;
    record.lurd = lurd;
  }
  if (!old || pushes < old.bestPushes || (pushes === old.bestPushes && moves < old.bestPushesMoves)) {
    record.bestPushes = pushes;
    record.bestPushesMoves = moves;
  }
  all[key] = record;
  write(PROGRESS_KEY, all);
  return record;
}

/** The set and level chosen last: {setId, levelPosition} or null. */
export function lastChoice() {
  return read(LAST_KEY, null);
}

/** Keeps the set and level chosen now for the next visit. */
export function keepChoice(setId, levelPosition) {
  write(LAST_KEY, { setId, levelPosition });
}

/** The position saved for a level (its moves, LURD from the start), or null. */
export function savedPosition(xsb) {
  return read(SAVED_KEY, {})[levelKey(xsb)] ?? null;
}

/** Saves a position of a level (its moves) for a later visit, replacing the one saved before. */
export function savePosition(xsb, moves) {
  const all = read(SAVED_KEY, {});
  all[levelKey(xsb)] = moves;
  write(SAVED_KEY, all);
}
