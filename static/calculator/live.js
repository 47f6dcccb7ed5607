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

// ＋记一局 becomes 接着录 when another phone starts the round: the swap keeps the button a finger may
// be on (the same link either way) and changes only its words, so that tap is not lost (issue 19).
var recordButton = null;
document.addEventListener("htmx:beforeSwap", function (event) {
  recordButton = event.target.id === "evening-live" ? event.target.querySelector("a.ev-record") : null;
});
document.addEventListener("htmx:afterSwap", function () {
  var fresh = recordButton && document.querySelector("#evening-live a.ev-record");
  if (fresh && fresh !== recordButton && fresh.href === recordButton.href) {
    if (recordButton.innerHTML !== fresh.innerHTML) recordButton.innerHTML = fresh.innerHTML;
    fresh.replaceWith(recordButton);
  }
  recordButton = null;
});

// Back to the evening from a round (the browser's page cache shows it as it was left): ask at once
// for what changed meanwhile, the round being entered (接着录 · 录入中) above all, not in up to 5 s.
window.addEventListener("pageshow", function (event) {
  var live = document.getElementById("evening-live");
  if (event.persisted && live && window.htmx) {
    window.htmx.ajax("GET", live.getAttribute("hx-get"), { target: live, swap: "outerHTML" });
  }
});
