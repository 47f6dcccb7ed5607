/* 录入中: nothing typed into a round form is lost, and the phones at a table enter one round together.
 * - [data-draft]: an evening's next round, or 改这局 on a stored one, kept on the server and shared
 *   by the table's phones (htmx saves it with the preview and polls it). This script keeps what
 *   htmx cannot know: the fields typed here and not saved yet, the per-field merge of a poll's
 *   answer, and when to stop. The design: docs/WEB.md, "The shared draft on the page".
 * - [data-local-draft]: the stateless /round/ page keeps its entry in this browser (localStorage)
 *   and brings it back when the page is opened afresh (data-fresh="1").
 * The form works without this script; an `input` event on it makes tiles.js draw and htmx post.
 */
(function () {
  "use strict";

  var LOCAL_KEY = "zhuoji-round-entry";
  // A field's values as the form would post them, and setting them: outbox.js's (loaded first, on every page).
  var valuesOf = window.zhuojiFields.valuesOf, setValues = window.zhuojiFields.setValues;

  function same(a, b) { return a.length === b.length && a.every(function (v, i) { return v === b[i]; }); }

  /* Tell tiles.js and htmx that the form changed (chips, counts, preview) without a user's event. */
  function redraw(form) { form.dispatchEvent(new Event("input", { bubbles: true })); }

  /* -- an evening's draft, shared by the phones at the table ------------------------------- */

  function shared(root) {
    var form = root.querySelector("form[data-round-form]"), poll = root.querySelector("[data-draft-poll]");
    if (!form || !poll) return;
    // A writer id for every load of the page, not the HTML's: Back or Forward may show this form's
    // first copy again, and a poll's answer leaves out its writer's own changes, so the page would
    // never get back what it typed before it left.
    form.elements.draft_client.value = Array.from(crypto.getRandomValues(new Uint8Array(8)), function (b) { return (b + 256).toString(16).slice(1); }).join("");
    var baseInput = form.elements.draft_base;  // the draft version this page has seen
    var keyInput = form.elements.idempotency_key, log = root.querySelector("[data-draft-log]");
    var saved = Number(baseInput.value) > 0;  // the server holds a draft with this page's changes, or others'
    var dirty = {};          // field name -> true: typed here, not saved yet
    var inFlight = 0, stopped = false, submitting = false;
    var told = null;         // the key whose end this page has said already

    function seen() { return Number(baseInput.value) || 0; }

    /* How many fields this page holds that the server does not yet: tests and CSS can see it. */
    function showPending() {
      root.setAttribute("data-draft-pending", String(Object.keys(dirty).length));
      // outbox.js keeps them in the browser until the server has them (a reload, a closed tab)
      document.dispatchEvent(new CustomEvent("zhuoji:pending", { detail: { form: form, names: Object.keys(dirty), base: seen() } }));
    }

    /* A poll's word at the top of the log (a save's come from the server the same way; CSS shows three). */
    function note(text) {
      if (log && text) log.prepend(Object.assign(document.createElement("li"), { textContent: text }));
    }

    /* Recorded, or the correction ended: no more saving or polling (htmx stops polling an
     * element gone from the page). The server's words for it (the poll's `bar`, or the bar a save
     * swapped in already) replace the draft bar and the sticky bar's buttons, out of band. */
    function stop(bar) {
      stopped = true;
      dirty = {};
      showPending();
      root.classList.add("is-recorded");
      poll.remove();
      if (bar) window.htmx.swap(form, bar, { swapStyle: "none" });
    }

    form.addEventListener("input", function (event) {
      var name = event.target.name;
      if (!name || name.indexOf("draft_") === 0) return;  // the form itself: a redraw, not a change
      dirty[name] = true;
      showPending();
    });
    form.addEventListener("submit", function () { submitting = true; });
    form.addEventListener("htmx:configRequest", function (event) {
      if (event.detail.elt !== form) return;
      var sent = event.detail.draftSent = {};  // what this save carries, read back on its answer
      Object.keys(dirty).forEach(function (name) { sent[name] = valuesOf(form, name); });
      event.detail.parameters.draft_changed = Object.keys(sent).join(",");
    });
    form.addEventListener("htmx:beforeSend", function (event) {
      if (event.detail.elt !== form) return;
      inFlight += 1;
      // Counted down by the request itself, not by htmx:afterRequest: htmx skips that event when
      // handling the answer throws, and a count stuck above 0 stopped this page from ever sending
      // its unsaved tiles again (seen under load: a phone kept 9 of a hand's 13).
      event.detail.xhr.addEventListener("loadend", function () { inFlight = Math.max(0, inFlight - 1); });
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      var sent = event.detail.elt === form && event.detail.requestConfig.draftSent;
      if (!event.detail.successful || !sent) return;  // offline: it stays dirty and is sent again
      if (Object.keys(sent).length) saved = true;
      Object.keys(sent).forEach(function (name) { if (same(valuesOf(form, name), sent[name])) delete dirty[name]; });
      showPending();
    });
    // A save's answer says (HX-Trigger) the round was recorded, or the correction ended, meanwhile.
    form.addEventListener("draftended", function () { if (!stopped) stop(); });

    function apply(data) {
      if (stopped) return;
      if (data.bar) { stop(data.bar); return; }  // recorded, or the correction saved or thrown away
      if (data.gone) {  // thrown away (or recorded and deleted): this page's next change starts a new one
        if (data.deleted ? told !== keyInput.value : saved) note(data.note);  // the server's words, said once
        told = keyInput.value;
        saved = false;
        baseInput.value = "0";
        return;
      }
      if (data.key !== keyInput.value) { keyInput.value = data.key; baseInput.value = "0"; return; }
      var changed = false;
      Object.keys(data.fields).forEach(function (name) {
        if (same(valuesOf(form, name), data.fields[name])) return;
        if (dirty[name]) { note(data.said[name]); return; }  // typed here and not saved yet: ours stays, and the page says so
        setValues(form, name, data.fields[name]);
        note((data.overruled || {})[name]);  // a value this page had written, replaced by another phone: said, not a silent flip
        changed = true;
      });
      baseInput.value = String(Math.max(seen(), data.version));
      if (data.version) saved = true;
      if (changed) redraw(form);
      // The draft as the server scores it (progress, net bar, every seat's 确认 / 有异议): not while
      // this page holds typing the server has not seen (its own preview answers for that).
      if (data.state && !inFlight && !Object.keys(dirty).length) window.htmx.swap(form, data.state, { swapStyle: "none" });
    }

    // The poll is htmx's (docs/WEB.md); here only: not while hidden (a trigger filter needs unsafe-eval).
    poll.addEventListener("htmx:configRequest", function (event) {
      if (stopped || document.visibilityState !== "visible") event.preventDefault();
    });
    poll.addEventListener("htmx:beforeSwap", function (event) {
      event.detail.shouldSwap = false;  // JSON: read here, not swapped
      if (event.detail.xhr.status === 200) apply(JSON.parse(event.detail.serverResponse));
    });
    poll.addEventListener("htmx:afterRequest", function () {
      if (!stopped && !inFlight && Object.keys(dirty).length) redraw(form);  // send what is still unsaved
    });

    // 确认 / 有异议 are htmx's and the server's (docs/WEB.md; offline, outbox.js keeps them). A
    // note being typed for one is no change of the round.
    var confirmCard = root.querySelector("#draft-confirm");
    if (confirmCard) confirmCard.addEventListener("input", function (event) { event.stopPropagation(); });

    showPending();
    window.addEventListener("beforeunload", function (event) {
      if (!submitting && !stopped && Object.keys(dirty).length) { event.preventDefault(); event.returnValue = ""; }
    });
  }

  /* -- the stateless /round/ page: kept in this browser ------------------------------------ */

  function local(root) {
    var form = root.querySelector("form[data-round-form]");
    if (!form) return;
    function save() {
      try { localStorage.setItem(LOCAL_KEY, JSON.stringify(window.zhuojiFields.snapshot(form))); } catch (e) { /* private mode: no memory */ }
    }
    form.addEventListener("input", save);
    if (root.getAttribute("data-fresh") !== "1") { save(); return; }
    var stored = null;
    try { stored = JSON.parse(localStorage.getItem(LOCAL_KEY) || "null"); } catch (e) { stored = null; }
    if (!stored) return;
    var players = form.elements.players;
    if (players && stored.players && stored.players[0] !== players.value) {
      location.replace(location.pathname + "?players=" + encodeURIComponent(stored.players[0]));
      return;
    }
    Object.keys(stored).forEach(function (name) {
      if (name !== "players" && form.elements[name]) setValues(form, name, stored[name]);
    });
    // drawn, and asked of the server, once htmx listens (it starts on DOMContentLoaded, after this deferred script)
    document.addEventListener("DOMContentLoaded", function () { redraw(form); });
  }

  // Every page loads this script with defer: the page is parsed by now.
  document.querySelectorAll("[data-draft]").forEach(shared);
  document.querySelectorAll("[data-local-draft]").forEach(local);
  if (document.querySelector("[data-local-draft-done]")) {
    try { localStorage.removeItem(LOCAL_KEY); } catch (e) { /* nothing kept */ }
  }
})();
