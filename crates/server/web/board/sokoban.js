// Draws a Sokoban board as SVG from a server state {width, height, walls, goals, boxes, player,
// floor, dead_squares, frozen_boxes} (cells are [x, y], x the column). Used by play, replay and
// thumbnails. No rules here: what is dead or frozen comes from the server.

import { svgNode } from '../svg.js';

const key = ([x, y]) => `${x},${y}`;
const cellSet = (cells) => new Set((cells ?? []).map(key));

/**
 * The board as an <svg> (one unit per cell; CSS sizes it). Options: showDeadlocks (shade dead
 * squares, outline frozen boxes), cellPixels (the natural size of a cell), label (accessible name),
 * selected (a [x, y] cell to outline: the box the player picked to push with the mouse).
 */
export function drawBoard(state, { showDeadlocks = true, cellPixels = 40, label, selected = null } = {}) {
  const svg = svgNode('svg', {
    viewBox: `0 0 ${state.width} ${state.height}`,
    width: state.width * cellPixels,
    height: state.height * cellPixels,
    class: 'sokoban-board',
    role: 'img',
    'aria-label': label ?? describeBoard(state),
  });
  const goals = cellSet(state.goals);
  const frozen = cellSet(state.frozen_boxes);
  for (const cell of state.floor ?? []) svg.append(square(cell, 'floor'));
  for (const cell of state.walls ?? []) svg.append(square(cell, 'wall'));
  if (showDeadlocks) {
    for (const cell of state.dead_squares ?? []) svg.append(square(cell, 'dead', 0.06));
  }
  for (const [x, y] of state.goals ?? []) {
    svg.append(svgNode('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: 'goal' }));
  }
  for (const cell of state.boxes ?? []) {
    const onGoal = goals.has(key(cell));
    const isFrozen = showDeadlocks && frozen.has(key(cell));
    svg.append(box(cell, onGoal, isFrozen));
  }
  if (selected) {
    const [x, y] = selected;
    svg.append(svgNode('rect', { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.14, class: 'selected-box' }));
  }
  if (state.player) {
    const [x, y] = state.player;
    svg.append(svgNode('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.32, class: 'player' }));
  }
  return svg;
}

function square([x, y], className, inset = 0) {
  return svgNode('rect', {
    x: x + inset, y: y + inset, width: 1 - 2 * inset, height: 1 - 2 * inset, class: className,
  });
}

function box([x, y], onGoal, isFrozen) {
  const group = svgNode('g', { class: `box${onGoal ? ' on-goal' : ''}${isFrozen ? ' frozen' : ''}` });
  group.append(svgNode('rect', { x: x + 0.1, y: y + 0.1, width: 0.8, height: 0.8, rx: 0.12, class: 'box-body' }));
  // An inner mark tells a box on a goal apart without relying on colour alone.
  if (onGoal) group.append(svgNode('path', { d: `M${x + 0.3} ${y + 0.52} l0.14 0.14 l0.28 -0.3`, class: 'box-mark' }));
  if (isFrozen) group.append(svgNode('path', { d: `M${x + 0.28} ${y + 0.28} l0.44 0.44 M${x + 0.72} ${y + 0.28} l-0.44 0.44`, class: 'box-mark frozen-mark' }));
  return group;
}

/** A one-line description for screen readers. */
export function describeBoard(state) {
  const goals = cellSet(state.goals);
  const onGoal = (state.boxes ?? []).filter((cell) => goals.has(key(cell))).length;
  const player = state.player ? `, player at column ${state.player[0] + 1}, row ${state.player[1] + 1}` : '';
  return `Sokoban board ${state.width} by ${state.height}: ${state.boxes?.length ?? 0} boxes, ${onGoal} on goals${player}`;
}

/**
 * A drawable state from XSB text, for thumbnails only: characters mapped to cells (`#` wall,
 * `@`/`+` player, `$`/`*` box, `.`/`*`/`+` goal, space/`-`/`_` floor between a row's walls).
 * Comment lines (`;`) are skipped. This is drawing, not rules: nothing is decided here.
 */
export function stateFromXsb(xsb) {
  const rows = xsb.split(/\r?\n/).filter((row) => row.trim() !== '' && !row.trimStart().startsWith(';'));
  const state = { width: 0, height: rows.length, walls: [], goals: [], boxes: [], floor: [], player: null };
  rows.forEach((row, y) => {
    state.width = Math.max(state.width, row.length);
    const firstWall = row.indexOf('#');
    const lastWall = row.lastIndexOf('#');
    [...row].forEach((ch, x) => {
      const cell = [x, y];
      if (ch === '#') { state.walls.push(cell); return; }
      const inside = firstWall >= 0 && x > firstWall && x < lastWall;
      if (inside || ch !== ' ') state.floor.push(cell);
      if (ch === '.' || ch === '*' || ch === '+') state.goals.push(cell);
      if (ch === '$' || ch === '*') state.boxes.push(cell);
      if (ch === '@' || ch === '+') state.player = cell;
    });
  });
  return state;
}
