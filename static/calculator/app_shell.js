// The app around the pages: installs the service worker (templates/calculator/sw.js) so that
// after one visit online an evening's pages open with the network off, and says when the
// network is gone (partials/_network_banner.html). Without a worker (WeChat's browser on
// iPhone) the pages work online as before; without JavaScript the browser says it is offline.
(function () {
  "use strict";
  var script = document.currentScript;

  // -- the network banner: a request that could not be sent shows it, the next one that got an
  // answer hides it. htmx's polls and previews report here, draft.js's fetches through a
  // "zhuoji:network" event ({detail: {ok}}), and the browser's own offline / online events.
  function showOffline(offline) {
    var shown = document.querySelectorAll("[data-network-banner], [data-network-badge]");
    for (var i = 0; i < shown.length; i++) shown[i].hidden = !offline;
  }
  document.addEventListener("htmx:sendError", function () { showOffline(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) showOffline(false);
  });
  document.addEventListener("zhuoji:network", function (event) { showOffline(!event.detail.ok); });
  window.addEventListener("offline", function () { showOffline(true); });
  window.addEventListener("online", function () { showOffline(false); });

  // -- the service worker
  if (!script || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    var firstVisit = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        // This page came from the network before there was a worker to keep it: ask for a copy.
        if (firstVisit && registration.active) registration.active.postMessage({ keep: location.pathname });
      })
      .catch(function () {});
  });
})();
