// Links and hash changes to a page by name: the route helpers the pages use. A leaf module
// (it imports nothing); the routing itself, by location.hash, is in app.js.

/** Link to a page with parameters, e.g. pageUrl('sokoban', {xsb}) (no token in it). */
export function pageUrl(name, params = {}) {
  const query = new URLSearchParams(params).toString();
  return `${location.origin}${location.pathname}#/${name}${query ? `?${query}` : ''}`;
}

/** Goes to a page (a new history entry); params become the hash's query. */
export function navigate(name, params = {}) {
  const query = new URLSearchParams(params).toString();
  location.hash = `#/${name}${query ? `?${query}` : ''}`;
}

/** Replaces the hash without a new history entry and without re-routing. */
export function replaceRoute(name, params = {}) {
  const query = new URLSearchParams(params).toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}#/${name}${query ? `?${query}` : ''}`);
}
