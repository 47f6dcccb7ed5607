{% autoescape off %}// 捉鸡算账's service worker (calculator/views/app_shell.py), version {{ version }}.
// Static files: from the cache. Pages: from the network; the copy of an evening's page (and of
// its round form) this phone opened is served for that address only, and only when the network
// is gone.
"use strict";

const SHELL = "zhuoji-shell-{{ version }}";
const PAGES = "zhuoji-pages-{{ version }}";
const SHELL_FILES = {{ shell }};
const STATIC_PREFIX = {{ static_prefix }};
const OFFLINE_PAGE = {{ offline }};
// The evening page and the read-only page: kept per address, as they came.
const KEPT_PAGE = /^\/(e|v)\/[\w-]+\/$/;
// 记一局, the evening's round form: kept per evening address too, but marked. A copy holds the
// draft as it was when the phone last opened the form (its key may belong to a round recorded
// since, other phones may have typed since): the page learns from the mark that it is such a
// copy, says so, sends nothing from it, and opens itself again from the network when the
// network is back, where the outbox (outbox.js) merges what was typed into the round as it is
// then. A form without the mark (a template that lost it) is never kept.
const ROUND_FORM = /^\/e\/[\w-]+\/rounds\/new\/$/;
const MARK = 'data-kept-copy=""';
const MAX_PAGES = 40;  // copies of pages kept at once; the oldest go first

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== PAGES).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function fromStatic(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) (await caches.open(SHELL)).put(request, response.clone());
  return response;
}

function keepable(pathname) {
  return KEPT_PAGE.test(pathname) || ROUND_FORM.test(pathname);
}

// The round form's copy carries the time it was kept in its mark (上次联网 HH:MM).
async function marked(response) {
  const html = await response.text();
  if (!html.includes(MARK)) return null;
  const headers = new Headers(response.headers);
  for (const name of ["content-encoding", "content-length", "etag", "last-modified"]) headers.delete(name);
  return new Response(html.replace(MARK, `data-kept-copy="${Date.now()}"`),
                      { status: response.status, statusText: response.statusText, headers });
}

async function keep(key, pathname, response) {
  if (!response.ok || response.redirected) return;
  const copy = ROUND_FORM.test(pathname) ? await marked(response) : response;
  if (!copy) return;
  const cache = await caches.open(PAGES);
  await cache.put(key, copy);
  const keys = await cache.keys();  // oldest first
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((old) => cache.delete(old)));
}

async function page(event, url) {
  try {
    const response = await fetch(event.request);
    if (keepable(url.pathname) && !url.search) event.waitUntil(keep(event.request, url.pathname, response.clone()).catch(() => {}));
    return response;
  } catch (offline) {
    const kept = await (await caches.open(PAGES)).match(event.request, { ignoreVary: true });
    return kept || (await caches.match(OFFLINE_PAGE)) || Response.error();
  }
}

// A page opened before this worker was there to keep it (app_shell.js asks on a first visit).
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !keepable(path)) return;
  event.waitUntil(
    fetch(path, { credentials: "same-origin" })
      .then((response) => keep(new URL(path, self.location.origin).href, path, response))
      .catch(() => {}),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(fromStatic(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  }
  // Anything else (the live poll, previews, PDFs) goes to the network as if there were no worker.
});
{% endautoescape %}
