{% autoescape off %}// 捉鸡算账's service worker (calculator/views/app_shell.py), version {{ version }}.
// Static files: from the cache. Pages: from the network; the copy of an evening's page this
// phone opened is served for that address only, and only when the network is gone.
"use strict";

const SHELL = "zhuoji-shell-{{ version }}";
const PAGES = "zhuoji-pages-{{ version }}";
const SHELL_FILES = {{ shell }};
const STATIC_PREFIX = {{ static_prefix }};
const OFFLINE_PAGE = {{ offline }};
// The evening page and the read-only page: kept per address. Not the round form: a copy of it
// holds the draft as it was when the page was last loaded, and typing into it would overwrite
// what the table has entered since (the outbox of issue 20 is what can make it safe offline).
const KEPT_PAGE = /^\/(e|v)\/[\w-]+\/$/;

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

async function page(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && KEPT_PAGE.test(url.pathname) && !url.search) {
      (await caches.open(PAGES)).put(request, response.clone());
    }
    return response;
  } catch (offline) {
    const kept = await (await caches.open(PAGES)).match(request, { ignoreVary: true });
    return kept || (await caches.match(OFFLINE_PAGE)) || Response.error();
  }
}

// A page opened before this worker was there to keep it (app_shell.js asks on a first visit).
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !KEPT_PAGE.test(path)) return;
  event.waitUntil(
    fetch(path, { credentials: "same-origin" })
      .then(async (response) => {
        if (response.ok && !response.redirected) await (await caches.open(PAGES)).put(path, response);
      })
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
    event.respondWith(page(request, url));
  }
  // Anything else (the live poll, previews, PDFs) goes to the network as if there were no worker.
});
{% endautoescape %}
