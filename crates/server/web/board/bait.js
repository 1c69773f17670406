// Draws a Bait board as SVG from the rows the server sends (GVGAI level text, as in
// `/api/bait/play` states and `bait_play` tick events): `w` wall, `A` avatar, `a` avatar
// holding the key, `0` hole, `1` box, `B` box on a key or door, `k` key, `g` door, `m` mushroom,
// `.` floor. Drawing only: every rule (what moves, what falls, what opens) is the server's.

import { svgNode } from '../svg.js';

/** The tiles of the legend, in order: [character, name]. */
export const LEGEND = [
  ['A', 'Avatar'],
  ['a', 'Avatar holding the key'],
  ['w', 'Wall'],
  ['.', 'Floor'],
  ['0', 'Hole'],
  ['1', 'Box'],
  ['B', 'Box on a key or door'],
  ['k', 'Key'],
  ['g', 'Door (goal)'],
  ['m', 'Mushroom'],
];

const NAMES = Object.fromEntries(LEGEND);

/** The drawing of one tile character at column x, row y (a <g>). */
function tile(ch, x, y) {
  const group = svgNode('g', { transform: `translate(${x} ${y})`, class: `tile tile-${tileClass(ch)}` });
  if (ch === 'w') {
    group.append(svgNode('rect', { width: 1, height: 1, class: 'wall' }));
    group.append(svgNode('path', { d: 'M0 0.33 H1 M0 0.66 H1 M0.5 0 V0.33 M0.25 0.33 V0.66 M0.75 0.33 V0.66 M0.5 0.66 V1', class: 'wall-joint' }));
    return group;
  }
  group.append(svgNode('rect', { width: 1, height: 1, class: 'floor' }));
  switch (ch) {
    case '0':
      group.append(svgNode('ellipse', { cx: 0.5, cy: 0.52, rx: 0.4, ry: 0.36, class: 'hole' }));
      group.append(svgNode('ellipse', { cx: 0.5, cy: 0.58, rx: 0.28, ry: 0.22, class: 'hole-depth' }));
      break;
    case '1':
      group.append(...crate());
      break;
    case 'B':
      group.append(svgNode('rect', { x: 0.04, y: 0.04, width: 0.92, height: 0.92, rx: 0.1, class: 'under-mark' }));
      group.append(...crate());
      break;
    case 'k':
      group.append(...key(0.5, 0.5, 1));
      break;
    case 'g':
      group.append(svgNode('path', { d: 'M0.2 0.95 V0.4 A0.3 0.3 0 0 1 0.8 0.4 V0.95 Z', class: 'door' }));
      group.append(svgNode('path', { d: 'M0.5 0.12 V0.95', class: 'door-line' }));
      group.append(svgNode('circle', { cx: 0.62, cy: 0.62, r: 0.05, class: 'door-knob' }));
      break;
    case 'm':
      group.append(svgNode('rect', { x: 0.41, y: 0.5, width: 0.18, height: 0.34, rx: 0.06, class: 'mushroom-stem' }));
      group.append(svgNode('path', { d: 'M0.14 0.56 A0.36 0.36 0 0 1 0.86 0.56 Z', class: 'mushroom-cap' }));
      for (const [cx, cy] of [[0.34, 0.45], [0.55, 0.33], [0.68, 0.48]]) {
        group.append(svgNode('circle', { cx, cy, r: 0.05, class: 'mushroom-spot' }));
      }
      break;
    case 'A':
    case 'a':
      group.append(...avatar());
      if (ch === 'a') group.append(...key(0.78, 0.78, 0.5, 'held-key'));
      break;
    default:
      break;
  }
  return group;
}

function tileClass(ch) {
  return { w: 'wall', '.': 'floor', '0': 'hole', '1': 'box', B: 'box-covering', k: 'key', g: 'door', m: 'mushroom', A: 'avatar', a: 'avatar-key' }[ch] ?? 'floor';
}

function crate() {
  return [
    svgNode('rect', { x: 0.12, y: 0.12, width: 0.76, height: 0.76, rx: 0.06, class: 'box-body' }),
    svgNode('path', { d: 'M0.12 0.12 L0.88 0.88 M0.88 0.12 L0.12 0.88', class: 'box-plank' }),
  ];
}

function key(cx, cy, scale, extra = '') {
  const g = svgNode('g', { transform: `translate(${cx} ${cy}) scale(${scale})`, class: `key ${extra}` });
  g.append(svgNode('circle', { cx: -0.18, cy: 0, r: 0.14, class: 'key-ring' }));
  g.append(svgNode('path', { d: 'M-0.04 0 H0.32 M0.22 0 V0.12 M0.3 0 V0.1', class: 'key-shaft' }));
  return [g];
}

function avatar() {
  return [
    svgNode('circle', { cx: 0.5, cy: 0.5, r: 0.33, class: 'avatar' }),
    svgNode('circle', { cx: 0.39, cy: 0.44, r: 0.055, class: 'avatar-eye' }),
    svgNode('circle', { cx: 0.61, cy: 0.44, r: 0.055, class: 'avatar-eye' }),
    svgNode('path', { d: 'M0.38 0.6 Q0.5 0.7 0.62 0.6', class: 'avatar-mouth' }),
  ];
}

/**
 * The board as an <svg> (one unit per cell; CSS sizes it). `view` is {rows, tick, score,
 * has_key, status} and optionally `avatar` [x, y] (marked where the avatar fell when it is
 * dead). Options: cellPixels (a cell's natural size, made smaller when the board would be
 * wider or taller than maxPixels, down to MIN_CELL_PIXELS: levels go up to 64×64), label (the
 * accessible name's start).
 */
export function drawBoard(view, { cellPixels = 40, maxPixels = 900, label = 'Bait board' } = {}) {
  const rows = view.rows ?? [];
  const height = rows.length;
  const width = Math.max(0, ...rows.map((row) => row.length));
  cellPixels = fittedCellPixels(cellPixels, maxPixels, width, height);
  const svg = svgNode('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width: width * cellPixels,
    height: height * cellPixels,
    class: 'bait-board',
    role: 'img',
    'aria-label': describeBoard(view, label, width, height),
  });
  rows.forEach((row, y) => [...row].forEach((ch, x) => svg.append(tile(ch, x, y))));
  if (view.status === 'dead' && view.avatar) {
    const [x, y] = view.avatar;
    svg.append(svgNode('path', {
      d: `M${x + 0.22} ${y + 0.22} L${x + 0.78} ${y + 0.78} M${x + 0.78} ${y + 0.22} L${x + 0.22} ${y + 0.78}`,
      class: 'fell-mark',
    }));
  }
  return svg;
}

/** The smallest natural size of a cell, in pixels (a 64×64 board is then 576 pixels wide). */
export const MIN_CELL_PIXELS = 9;

/** `cellPixels`, or less so that a `width`×`height` board fits in `maxPixels`. */
export function fittedCellPixels(cellPixels, maxPixels, width, height) {
  const fit = Math.floor(maxPixels / Math.max(1, width, height));
  return Math.max(MIN_CELL_PIXELS, Math.min(cellPixels, fit));
}

/** A one-line description for screen readers (and the tests). */
export function describeBoard(view, label = 'Bait board', width = view.rows?.[0]?.length ?? 0, height = view.rows?.length ?? 0) {
  const key = view.has_key ? ', holding the key' : '';
  return `${label} ${width} by ${height}, tick ${view.tick}, score ${view.score}${key}, ${view.status}`;
}

/** A small swatch of one tile for the legend. */
export function tileSwatch(ch, pixels = 28) {
  const svg = svgNode('svg', { viewBox: '0 0 1 1', width: pixels, height: pixels, class: 'bait-board swatch', 'aria-hidden': 'true' });
  svg.append(tile(ch, 0, 0));
  return svg;
}

/** The legend's name of a tile character. */
export function tileName(ch) {
  return NAMES[ch] ?? 'Floor';
}
