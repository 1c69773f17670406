// Draws a SameGame board as SVG from a server state {width, height, rows} (rows top first,
// colours 1-based, 0 empty). Used by play and replay. No rules here: which stones form a group
// comes from the server (`groups` of /api/samegame/play); this only outlines the cells it is given.

import { svgNode } from '../svg.js';

/** Colour names for screen readers and the legend (the standard set's R G B Y V first). */
export const COLOUR_NAMES = [
  'red', 'green', 'blue', 'yellow', 'violet', 'orange', 'cyan', 'magenta', 'pink', 'white',
  'black', 'teal', 'lime', 'navy', 'silver', 'amber', 'azure', 'emerald', 'fuchsia', 'honey',
];

/** CSS colour classes exist for colours 1 to 10; beyond them a hue is spread around the wheel. */
const STYLED_COLOURS = 10;

const cellKey = ([col, row]) => `${col},${row}`;

/**
 * The board as an <svg> (one unit per cell; CSS sizes it). Options: `highlight` (cells [col,
 * row] to outline: the hovered group, or the group a replay removes next), `highlightKind`
 * ('hover' or 'next'), `cursor` (the keyboard cursor's cell), `cellPixels`, `label`.
 */
export function drawBoard(state, { highlight = [], highlightKind = 'hover', cursor = null, cellPixels = 32, label } = {}) {
  const svg = svgNode('svg', {
    viewBox: `0 0 ${state.width} ${state.height}`,
    width: state.width * cellPixels,
    height: state.height * cellPixels,
    class: 'samegame-board',
    role: 'img',
    'aria-label': label ?? describeBoard(state),
  });
  svg.append(svgNode('rect', { x: 0, y: 0, width: state.width, height: state.height, class: 'sg-empty' }));
  const marked = new Set(highlight.map(cellKey));
  state.rows.forEach((row, y) => row.forEach((colour, x) => {
    if (colour === 0) return;
    svg.append(stone(x, y, colour, marked.has(`${x},${y}`)));
  }));
  if (marked.size > 0) svg.append(outline(highlight, marked, highlightKind));
  if (cursor) {
    svg.append(svgNode('rect', {
      x: cursor[0] + 0.04, y: cursor[1] + 0.04, width: 0.92, height: 0.92, rx: 0.12, class: 'sg-cursor',
    }));
  }
  return svg;
}

function stone(x, y, colour, marked) {
  const group = svgNode('g', { class: `sg-stone${marked ? ' sg-marked' : ''}` });
  const body = svgNode('rect', { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.18, class: colourClass(colour) });
  // Set through the CSS object model: the page's policy refuses style attributes.
  if (colour > STYLED_COLOURS) body.style.setProperty('fill', `hsl(${(colour * 137) % 360} 65% 50%)`);
  group.append(body);
  // A mark per colour, so that colour is not the only cue.
  const mark = colourMark(x + 0.5, y + 0.5, colour);
  if (mark) group.append(mark);
  return group;
}

function colourClass(colour) {
  return colour <= STYLED_COLOURS ? `sg-body sg-c${colour}` : 'sg-body';
}

/** A small shape inside the stone: dot, square, triangle, diamond, ring, then letters. */
function colourMark(cx, cy, colour) {
  const r = 0.14;
  switch (colour) {
    case 1: return svgNode('circle', { cx, cy, r, class: 'sg-mark' });
    case 2: return svgNode('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: 'sg-mark' });
    case 3: return svgNode('path', { d: `M${cx} ${cy - r * 1.2} L${cx + r * 1.2} ${cy + r} L${cx - r * 1.2} ${cy + r} Z`, class: 'sg-mark' });
    case 4: return svgNode('path', { d: `M${cx} ${cy - r * 1.3} L${cx + r * 1.3} ${cy} L${cx} ${cy + r * 1.3} L${cx - r * 1.3} ${cy} Z`, class: 'sg-mark' });
    case 5: return svgNode('circle', { cx, cy, r, class: 'sg-mark sg-ring' });
    default: {
      const text = svgNode('text', { x: cx, y: cy + 0.13, class: 'sg-letter', 'text-anchor': 'middle' });
      text.textContent = String(colour);
      return text;
    }
  }
}

/** The outer edges of the marked cells as one path (the group's outline). */
function outline(cells, marked, kind) {
  let d = '';
  for (const [x, y] of cells) {
    if (!marked.has(`${x},${y - 1}`)) d += `M${x} ${y}h1`;
    if (!marked.has(`${x},${y + 1}`)) d += `M${x} ${y + 1}h1`;
    if (!marked.has(`${x - 1},${y}`)) d += `M${x} ${y}v1`;
    if (!marked.has(`${x + 1},${y}`)) d += `M${x + 1} ${y}v1`;
  }
  return svgNode('path', { d, class: `sg-outline sg-outline-${kind}` });
}

/** A one-line description for screen readers. */
export function describeBoard(state) {
  let stones = 0;
  for (const row of state.rows) for (const colour of row) if (colour !== 0) stones++;
  return `SameGame board ${state.width} by ${state.height}: ${stones} stones, ${state.moves_left ?? '?'} groups to remove`;
}

