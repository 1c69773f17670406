// Small DOM helpers shared by the pages: element building, downloads, the clipboard and text entry.

/** el('button', {type: 'button', onclick}, 'Text', child...) -> element. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return node;
}

/** A labelled field: <div class="field"><label for=id>text</label>control</div>. */
export function field(labelText, control) {
  return el('div', { class: 'field' }, el('label', { for: control.id }, labelText), control);
}

/** Offers `text` as a file download. */
export function downloadText(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = el('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copies to the clipboard; resolves true on success, false when the browser refuses. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A file-name-safe slug of a title. */
export function slug(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'level';
}

/** Puts a textarea's caret at a 1-based line and column of its text (a parse error's place). */
export function moveCaretTo(area, line, column) {
  if (!area) return;
  const lines = area.value.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.min(column - 1, (lines[line - 1] ?? '').length);
  area.focus();
  area.setSelectionRange(offset, offset);
}

/** Whether a key event's target takes typed text (so page-wide key shortcuts leave it alone). */
export function isTextEntry(target) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  return target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file'].includes(target.type);
}
