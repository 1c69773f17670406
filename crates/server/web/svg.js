// SVG helpers shared by the boards and the pages' charts.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** svgNode('rect', {x, y, width, height, class}) -> an SVG element with those attributes. */
export function svgNode(tag, attributes = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

/** A chart's text label at (x, y), anchored 'start', 'middle' or 'end'. */
export function svgText(text, x, y, anchor, className = 'chart-tick') {
  const node = svgNode('text', { x, y, 'text-anchor': anchor, class: className });
  node.textContent = text;
  return node;
}

/** The smallest of 1, 2, 2.5, 5 or 10 times a power of ten that is at least `value` (a chart's grid step). */
export function niceCeiling(value) {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}

/** The [column, row] cell under a pointer position on a board drawn one unit per cell, or null outside it. */
export function cellAt(svg, clientX, clientY) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  const [width, height] = svg.getAttribute('viewBox').split(' ').slice(2).map(Number);
  const x = Math.floor(point.x);
  const y = Math.floor(point.y);
  return x >= 0 && y >= 0 && x < width && y < height ? [x, y] : null;
}
