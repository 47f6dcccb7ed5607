// Installs the service worker (templates/calculator/sw.js) so that after one visit online an
// evening's pages open with the network off. Without a worker (WeChat's browser on iPhone)
// nothing changes: the pages work online as before.
(function () {
  "use strict";
  var script = document.currentScript;
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
