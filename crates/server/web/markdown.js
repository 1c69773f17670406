// A small Markdown-to-DOM renderer for the experiments' reports: headings, paragraphs, pipe
// tables, lists and fenced code, with `code`, **strong**, *emphasis*, [links](…) and
// ![images](…) (both as their text) inside. Every piece of server text goes in through
// textContent, never innerHTML.

import { el } from './ui.js';

/**
 * Renders `markdown` into a DocumentFragment. Heading levels are ranked and shifted by
 * `headingOffset` (so a report's top level sits below the page's own headings); each table is named by the heading
 * before it (aria-labelledby), `idPrefix` keeps those ids unique on the page.
 */
export function renderMarkdown(markdown, { headingOffset = 2, idPrefix = 'md' } = {}) {
  const fragment = document.createDocumentFragment();
  const lines = String(markdown).replace(/\r\n?/g, '\n').split('\n');
  // The heading levels used, in order: the report's first level becomes h(1 + offset), its
  // second h(2 + offset) … (a report may skip levels: `#` then `###`).
  const levels = [...new Set(lines.map((line) => /^(#{1,6})\s/.exec(line)?.[1].length).filter(Boolean))].sort();
  let lastHeadingId = null;
  let headingCount = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') { i++; continue; }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = Math.min(6, levels.indexOf(heading[1].length) + 1 + headingOffset);
      lastHeadingId = `${idPrefix}-h${++headingCount}`;
      fragment.append(el(`h${level}`, { id: lastHeadingId }, ...inline(heading[2])));
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      i++;
      fragment.append(el('pre', { class: 'md-code' }, code.join('\n')));
      continue;
    }
    if (isTableRow(line) && i + 1 < lines.length && isSeparatorRow(lines[i + 1])) {
      const rows = [];
      for (; i < lines.length && isTableRow(lines[i]); i++) rows.push(lines[i]);
      fragment.append(table(rows, lastHeadingId));
      continue;
    }
    if (/^\s*([-*+]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const list = el(ordered ? 'ol' : 'ul', {});
      for (; i < lines.length && /^\s*([-*+]|\d+\.)\s+/.test(lines[i]); i++) {
        list.append(el('li', {}, ...inline(lines[i].replace(/^\s*([-*+]|\d+\.)\s+/, ''))));
      }
      fragment.append(list);
      continue;
    }
    const paragraph = [];
    for (; i < lines.length && lines[i].trim() !== '' && !startsBlock(lines, i); i++) paragraph.push(lines[i].trim());
    if (paragraph.length === 0) { paragraph.push(line.trim()); i++; }
    fragment.append(el('p', {}, ...inline(paragraph.join(' '))));
  }
  return fragment;
}

function startsBlock(lines, i) {
  const line = lines[i];
  return /^#{1,6}\s/.test(line) || line.startsWith('```') || /^\s*([-*+]|\d+\.)\s+/.test(line)
    || (isTableRow(line) && i + 1 < lines.length && isSeparatorRow(lines[i + 1]));
}

function isTableRow(line) {
  return /^\s*\|.*\|\s*$/.test(line);
}

function isSeparatorRow(line) {
  return /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(line);
}

/** The cells of `| a | b |` (a `\|` stays in its cell). */
function cells(line) {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function table(rows, labelledBy) {
  const [header, , ...body] = rows;
  const numeric = (text) => /^[-+−]?[\d.,]+\s*%?$/.test(text);
  return el('div', { class: 'table-scroll md-table' },
    el('table', { class: 'results', 'aria-labelledby': labelledBy ?? undefined },
      el('thead', {}, el('tr', {}, cells(header).map((text) => el('th', { scope: 'col' }, ...inline(text))))),
      el('tbody', {}, body.map((row) => el('tr', {}, cells(row).map((text, column) => (column === 0
        ? el('th', { scope: 'row' }, ...inline(text))
        : el('td', { class: numeric(text) ? 'num' : undefined }, ...inline(text)))))))));
}

/** Inline spans as DOM nodes: `code`, **strong**, *em* / _em_, [text](url) and ![alt](src) as text. */
function inline(text) {
  const nodes = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\b_([^_]+)_\b|!?\[([^\]]+)\]\([^)]*\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    if (match[1] !== undefined) nodes.push(el('code', {}, match[1]));
    else if (match[2] !== undefined) nodes.push(el('strong', {}, match[2]));
    else if (match[3] !== undefined) nodes.push(el('em', {}, match[3]));
    else if (match[4] !== undefined) nodes.push(el('em', {}, match[4]));
    else nodes.push(match[5]);
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}
