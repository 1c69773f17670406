// The workbench shell: routing by location.hash to one page module at a time. The token,
// API and job-stream helpers are in api.js, the pages' route helpers in route.js.

import { hasToken, takeToken } from './api.js';

/** Page modules by route name; each exports mount(main, params) -> unmount function. */
const PAGES = {
  sokoban: { title: 'Sokoban', load: () => import('./pages/sokoban.js') },
  generate: { title: 'Sokoban generator', load: () => import('./pages/generate.js') },
  editor: { title: 'Sokoban level editor', load: () => import('./pages/editor.js') },
  samegame: { title: 'SameGame', load: () => import('./pages/samegame.js') },
  testsets: { title: 'Test sets', load: () => import('./pages/testsets.js') },
  bait: { title: 'Bait', load: () => import('./pages/bait.js') },
  sudoku: { title: 'Sudoku', load: () => import('./pages/sudoku.js') },
  experiments: { title: 'Experiments', load: () => import('./pages/experiments.js') },
};
const DEFAULT_PAGE = 'sokoban';

const shell = { unmount: null, routeSerial: 0 };

/** The current route: `#/NAME?QUERY` -> {name, params}. */
export function currentRoute() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [name, query = ''] = hash.split('?');
  return { name: PAGES[name] ? name : DEFAULT_PAGE, params: new URLSearchParams(query) };
}

function markCurrentNav(name) {
  for (const link of document.querySelectorAll('nav a[data-page]')) {
    if (link.dataset.page === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

async function route() {
  const serial = ++shell.routeSerial;
  const { name, params } = currentRoute();
  const main = document.getElementById('main');
  if (shell.unmount) shell.unmount();
  shell.unmount = null;
  markCurrentNav(name);
  document.title = `${PAGES[name].title} · puzzle-search workbench`;
  const module = await PAGES[name].load();
  if (serial !== shell.routeSerial) return;
  main.replaceChildren();
  if (!hasToken()) {
    const notice = document.createElement('p');
    notice.className = 'notice';
    notice.setAttribute('role', 'alert');
    notice.textContent = 'No access token: open the URL that `puzzle serve` printed (it ends in ?token=…).';
    main.append(notice);
  }
  shell.unmount = module.mount(main, params) ?? null;
}

takeToken();
window.addEventListener('hashchange', route);
route();
