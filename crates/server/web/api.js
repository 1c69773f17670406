// The API, token and job-stream helpers: the only code that knows URLs and the token. A leaf
// module: it imports nothing, so the shell (app.js) and the pages import it without a circle.

const TOKEN_KEY = 'puzzle-search-token';

const auth = { token: null };

/** Reads `?token=` once, keeps it for this tab and takes it out of the visible URL. */
export function takeToken() {
  const query = new URLSearchParams(location.search);
  const fromUrl = query.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    query.delete('token');
    const rest = query.toString();
    history.replaceState(history.state, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  auth.token = sessionStorage.getItem(TOKEN_KEY);
}

/** Whether a token was found (in the URL or kept for this tab). */
export function hasToken() {
  return Boolean(auth.token);
}

function authHeaders() {
  return auth.token ? { Authorization: `Bearer ${auth.token}` } : {};
}

/** An Error from a failed response: the server's message plus status, line, column, level. */
async function responseError(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  let message = body?.error ?? `${response.status} ${response.statusText}`;
  if (response.status === 401 || response.status === 403) {
    message += ' (open the URL with the token that `puzzle serve` printed)';
  }
  const error = new Error(message);
  error.status = response.status;
  if (body) {
    error.line = body.line;
    error.column = body.column;
    error.level = body.level;
  }
  return error;
}

/** GET `/api/PATH` without a body, POST JSON with one; returns the JSON answer or throws. */
export async function api(path, body, { signal } = {}) {
  const init = { headers: authHeaders(), signal };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`/api/${path}`, init);
  if (!response.ok) throw await responseError(response);
  return response.status === 204 ? null : response.json();
}

/** One server-sent event block (lines up to a blank line) as {event, data}, or null. */
function parseEventBlock(block) {
  let event = 'message';
  const dataLines = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') dataLines.push(value);
  }
  if (dataLines.length === 0) return null;
  const text = dataLines.join('\n');
  let data;
  try { data = JSON.parse(text); } catch { data = text; }
  return { event, data, text };
}

/**
 * Starts a job (POST /api/jobs) and calls onEvent(name, data) for each event of its stream.
 * A third argument, `text`, is the event's data exactly as the server sent it.
 * Aborting `signal` stops the job (the stream is closed and the job deleted). Resolves with
 * the `end` event's data ({reason}), or {reason: "stopped"} after an abort.
 */
export async function streamJob(request, onEvent, signal) {
  const response = await fetch('/api/jobs', {
    method: 'POST',
    headers: { ...authHeaders(), 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok) throw await responseError(response);
  let jobId = null;
  const deleteJob = () => {
    if (jobId) fetch(`/api/jobs/${encodeURIComponent(jobId)}`, { method: 'DELETE', headers: authHeaders() }).catch(() => {});
  };
  signal?.addEventListener('abort', deleteJob, { once: true });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let end = { reason: 'closed' };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      const blocks = buffer.split(/\r?\n\r?\n/);
      buffer = blocks.pop();
      for (const block of blocks) {
        const parsed = parseEventBlock(block);
        if (!parsed) continue;
        if (parsed.event === 'started') jobId = parsed.data?.id ?? null;
        if (parsed.event === 'end') end = parsed.data;
        onEvent(parsed.event, parsed.data, parsed.text);
      }
    }
  } catch (error) {
    if (signal?.aborted) return { reason: 'stopped' };
    throw error;
  } finally {
    signal?.removeEventListener('abort', deleteJob);
  }
  return end;
}
