// Draws a Sudoku grid from a server state {side, box_size, cells: [{value, given, candidates,
// conflict}]} as an ARIA grid of cells (one focusable cell at a time). No rules here: the
// candidates and the clashes come from the server; this only paints them.

import { el } from '../ui.js';

/** The symbol of a value: digits, then A.. for 10 and up (16×16 and 25×25 grids). */
export function symbol(value) {
  if (!value) return '';
  return value <= 9 ? String(value) : String.fromCharCode(55 + value);
}

/** The accessible name of cell `i`: "Row 1, column 3: 5, given, clashes". */
export function cellName(view, i) {
  const cell = view.cells[i];
  const row = Math.floor(i / view.side) + 1;
  const column = (i % view.side) + 1;
  const parts = [`Row ${row}, column ${column}: ${cell.value ? symbol(cell.value) : 'empty'}`];
  if (cell.given) parts.push('given');
  if (cell.conflict) parts.push('clashes');
  return parts.join(', ');
}

/**
 * The grid's DOM for a side×side grid: {element, cells}. `onCellClick(i)` hears clicks; the
 * caller handles keys on `element`.
 */
export function buildGrid(side, boxSize, { onCellClick, label = 'Sudoku grid' } = {}) {
  const element = el('div', { class: 'sudoku-grid', role: 'grid', 'aria-label': label });
  // Custom properties through the CSS object model: the page's policy refuses style attributes.
  element.style.setProperty('--side', String(side));
  const cells = [];
  for (let r = 0; r < side; r++) {
    const row = el('div', { class: 'sudoku-row', role: 'row' });
    for (let c = 0; c < side; c++) {
      const i = r * side + c;
      const classes = ['sudoku-cell'];
      if ((c + 1) % boxSize === 0 && c + 1 < side) classes.push('box-right');
      if ((r + 1) % boxSize === 0 && r + 1 < side) classes.push('box-bottom');
      const value = el('span', { class: 'cell-value', 'aria-hidden': 'true' });
      const marks = el('span', { class: 'cell-marks', 'aria-hidden': 'true' });
      marks.style.setProperty('--box', String(boxSize));
      const cell = el('div', {
        class: classes.join(' '), role: 'gridcell', tabindex: -1,
        onclick: () => onCellClick?.(i),
      }, value, marks);
      cells.push({ cell, value, marks });
      row.append(cell);
    }
    element.append(row);
  }
  return { element, cells, side, boxSize };
}

/**
 * Paints `view` into a grid built by buildGrid. Options: selected (cell index), showCandidates,
 * hintCell (index or null), markedCells (a Set of indices to outline, e.g. wrong entries).
 */
export function paintGrid(grid, view, { selected = 0, showCandidates = false, hintCell = null, markedCells = new Set() } = {}) {
  const selectedValue = view.cells[selected]?.value ?? 0;
  grid.cells.forEach(({ cell, value, marks }, i) => {
    const data = view.cells[i];
    value.textContent = symbol(data.value);
    const candidateText = showCandidates && !data.value ? data.candidates : [];
    const signature = candidateText.join(',');
    if (marks.dataset.signature !== signature) {
      marks.dataset.signature = signature;
      const present = new Set(candidateText);
      marks.replaceChildren(...(candidateText.length === 0 ? [] : Array.from({ length: view.side }, (_, k) =>
        el('span', { class: 'mark' }, present.has(k + 1) ? symbol(k + 1) : ''))));
    }
    cell.classList.toggle('given', data.given);
    cell.classList.toggle('entry', !data.given && data.value !== 0);
    cell.classList.toggle('conflict', data.conflict);
    cell.classList.toggle('selected', i === selected);
    cell.classList.toggle('same-digit', selectedValue !== 0 && i !== selected && data.value === selectedValue);
    cell.classList.toggle('hinted', i === hintCell);
    cell.classList.toggle('marked', markedCells.has(i));
    cell.tabIndex = i === selected ? 0 : -1;
    cell.setAttribute('aria-selected', String(i === selected));
    cell.setAttribute('aria-label', cellName(view, i)
      + (showCandidates && !data.value && data.candidates.length ? `, candidates ${data.candidates.map(symbol).join(' ')}` : ''));
    if (data.conflict) cell.setAttribute('aria-invalid', 'true');
    else cell.removeAttribute('aria-invalid');
    if (data.given) cell.setAttribute('aria-readonly', 'true');
    else cell.removeAttribute('aria-readonly');
  });
}
