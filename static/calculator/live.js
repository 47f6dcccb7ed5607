// The evening's live part (partials/_evening_live.html) polls every 5 s; a tab nobody is looking
// at does not ask. A filter in its hx-trigger would do the same through eval, which the pages'
// Content-Security-Policy refuses.
document.addEventListener("htmx:confirm", function (event) {
  if (event.target.id === "evening-live" && document.visibilityState !== "visible") {
    event.preventDefault();
  }
});
