// The evening's live part (partials/_evening_live.html) and a round's words
// (partials/_round_words_live.html) poll every 5 s; a tab nobody is looking
// at does not ask. A filter in its hx-trigger would do the same through eval, which the pages'
// Content-Security-Policy refuses.
document.addEventListener("htmx:confirm", function (event) {
  if ((event.target.id === "evening-live" || event.target.id === "round-words-live") &&
      document.visibilityState !== "visible") {
    event.preventDefault();
  }
});
