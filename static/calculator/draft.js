/* 录入中: nothing typed into a round form is lost, and the phones at a table enter one round together.
 *
 * Three wrappers around a round form ([data-round-form]) switch this on:
 * - [data-draft]: an evening's next round, kept on the server (models.RoundDraft). Every change
 *   the live preview posts carries the names of the fields this page changed and has not saved
 *   yet (draft_changed); the server merges those per field. Every second (while the tab is visible)
 *   the page asks for what other phones changed since the version it has (204 when nothing) and
 *   fills it in, except where this page has typed something not yet saved: that stays, and the
 *   page says "小李 也改了翻牌：6条". A page that said who it is (data-my-seat) puts its own
 *   seat's card first, just above how the round ended, its tile keyboard open while the hand is empty.
 *   With [data-correction] it is 改这局 on a stored round, shared the same way: when another phone
 *   saves or throws the correction away, this page stops and says so, with a link to the round.
 * - [data-local-draft]: the stateless /round/ page keeps its entry in this browser (localStorage)
 *   and brings it back when the page is opened afresh (data-fresh="1").
 * - [data-warn-unsaved]: a correction asks before the page is left with changes not submitted.
 * The form itself works without this script; tiles.js draws the tiles whenever an `input` event
 * reaches the form, which is also what makes htmx post the preview.
 */
(function () {
  "use strict";

  var POLL_MS = 1000;  // a word or a tile on another phone shows here within about a second (issue 19: ≤ 2 s at p95)
  var LOCAL_KEY = "zhuoji-round-entry";

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function newClient() {
    var bytes = new Uint8Array(8);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  /* A field's values as the form would post them, and setting them: outbox.js's (loaded first,
   * on every page). */
  var valuesOf = window.zhuojiFields.valuesOf;
  var setValues = window.zhuojiFields.setValues;

  function same(a, b) {
    return a.length === b.length && a.every(function (v, i) { return v === b[i]; });
  }

  /* Tell tiles.js and htmx that the form changed (chips, counts, preview) without a user's event. */
  function redraw(form) { form.dispatchEvent(new Event("input", { bubbles: true })); }

  function fieldNames(form) {
    var names = [];
    each(form.elements, function (el) {
      if (el.name && el.type !== "submit" && el.name !== "csrfmiddlewaretoken" && names.indexOf(el.name) < 0) names.push(el.name);
    });
    return names;
  }

  /* -- an evening's draft, shared by the phones at the table ------------------------------- */

  function shared(root) {
    var form = root.querySelector("form[data-round-form]");
    if (!form) return;
    var url = root.getAttribute("data-draft-url");
    // A writer of its own for every load of the page, not the one the HTML was sent with: on
    // Forward (or Back) the browser may show its first copy of this form again, and the server
    // leaves a writer's own changes out of what it answers a poll, so the page would never get
    // back what it typed before it left.
    var client = form.elements.draft_client.value = newClient();
    var baseInput = form.elements.draft_base;
    var keyInput = form.elements.idempotency_key;
    var log = root.querySelector("[data-draft-log]");
    var seen = Number(baseInput.value) || 0;
    var saved = seen > 0;    // the server holds a draft with this page's changes, or others'
    var dirty = {};          // field name -> true: typed here, not saved yet
    var nextSent = null;     // what the request being configured carries
    var inFlight = 0;
    var applying = false, polling = false, stopped = false, submitting = false;
    var told = null;         // the key whose end this page has said already
    var correction = root.hasAttribute("data-correction");
    var mine = root.getAttribute("data-my-seat");  // sent with the poll: this phone is still at the table
    if (correction) openAtProblem(form);

    /* How many fields this page holds that the server does not yet: tests and CSS can see it. */
    function showPending() {
      root.setAttribute("data-draft-pending", String(Object.keys(dirty).length));
      // outbox.js keeps them in the browser until the server has them (a reload, a closed tab)
      document.dispatchEvent(new CustomEvent("zhuoji:pending", { detail: { form: form, names: Object.keys(dirty), base: seen } }));
    }

    function note(text) {
      if (!log || !text) return;
      var item = document.createElement("li");
      item.textContent = text;
      log.insertBefore(item, log.firstChild);
      while (log.children.length > 3) log.removeChild(log.lastChild);
    }

    function setSeen(version) {
      seen = version;
      baseInput.value = String(version);
    }

    function stop(number, href, words) {
      stopped = true;
      dirty = {};
      showPending();
      root.classList.add("is-recorded");
      if (number || words) {
        var bar = document.getElementById("draft-bar");
        if (bar && !bar.hasAttribute("data-draft-recorded")) {
          bar.setAttribute("data-draft-recorded", number || "");
          bar.innerHTML = "";
          var text = document.createElement("p");
          text.className = "draft-done";
          var link = document.createElement("a");
          link.href = href;
          link.textContent = words || root.getAttribute("data-recorded-text").replace("{n}", number);
          text.appendChild(link);
          bar.appendChild(text);
        }
      }
    }

    /* After each save: the draft's key (a new draft after a throw-away has its own), the notes. */
    function readBar() {
      var bar = document.getElementById("draft-bar");
      if (!bar) return;
      var key = bar.getAttribute("data-draft-key");
      if (key && keyInput.value !== key) { keyInput.value = key; setSeen(0); }
      each(bar.querySelectorAll("[data-draft-notes] li"), function (li) { note(li.textContent); li.remove(); });
      if (bar.hasAttribute("data-draft-recorded") || bar.hasAttribute("data-draft-ended")) stop();
    }

    form.addEventListener("input", function (event) {
      var name = event.target.name;
      if (applying || !name || name.indexOf("draft_") === 0) return;
      dirty[name] = true;
      showPending();
    });
    form.addEventListener("submit", function () { submitting = true; });
    form.addEventListener("htmx:configRequest", function (event) {
      if (event.detail.elt !== form) return;
      var names = Object.keys(dirty);
      event.detail.parameters.draft_changed = names.join(",");
      nextSent = {};
      names.forEach(function (name) { nextSent[name] = valuesOf(form, name); });
    });
    form.addEventListener("htmx:beforeSend", function (event) {
      if (event.detail.elt !== form) return;
      var xhr = event.detail.xhr;
      xhr.draftSent = nextSent;
      inFlight += 1;
      // Counted down by the request itself, not by htmx:afterRequest: htmx skips that event when
      // handling the answer throws, and a count stuck above 0 stopped this page from ever sending
      // its unsaved tiles again (seen under load: a phone kept 9 of a hand's 13).
      xhr.addEventListener("loadend", function () { inFlight = Math.max(0, inFlight - 1); });
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.elt !== form) return;
      var sent = event.detail.xhr && event.detail.xhr.draftSent;
      if (!event.detail.successful || !sent) return;  // offline: it stays dirty and is sent again
      if (Object.keys(sent).length) saved = true;
      Object.keys(sent).forEach(function (name) {
        if (same(valuesOf(form, name), sent[name])) delete dirty[name];
      });
      showPending();
      readBar();
    });
    document.body.addEventListener("htmx:oobAfterSwap", readBar);

    function apply(data) {
      if (!data || stopped) return;
      if (data.recorded) { stop(data.recorded, data.url); return; }
      if (data.gone && correction) { stop(null, data.url, root.getAttribute("data-gone-text")); return; }  // thrown away: for every phone
      if (data.gone) {  // thrown away (or recorded and deleted): this page's next change starts a new one, and it says so
        if (data.deleted && told !== keyInput.value) note(root.getAttribute("data-deleted-text").replace("{n}", data.deleted));
        else if (saved) note(root.getAttribute("data-gone-text"));
        told = keyInput.value;
        saved = false;
        setSeen(0);
        return;
      }
      if (data.key !== keyInput.value) { keyInput.value = data.key; setSeen(0); return; }
      var changed = false;
      Object.keys(data.fields).forEach(function (name) {
        var values = data.fields[name];
        if (same(valuesOf(form, name), values)) return;
        if (dirty[name]) {  // typed here and not saved yet: ours stays, and the page says so
          note((data.by[name] || root.getAttribute("data-other-phone")) + " " +
               root.getAttribute("data-also-changed") + (data.words[name] || name));
          return;
        }
        setValues(form, name, values);
        changed = true;
      });
      setSeen(Math.max(seen, data.version));
      if (data.version) saved = true;
      if (changed) {
        applying = true;
        try { redraw(form); } finally { applying = false; }
      }
      // The draft as the server scores it: each seat's progress, the net bar, every seat's 确认 /
      // 有异议, in this same answer. Not while this page holds typing of its own the server has
      // not seen (its own preview answers for that).
      if (data.state && !inFlight && !Object.keys(dirty).length) showState(data.state);
    }

    function showState(html) {
      if (window.zhuojiApplyPreview) window.zhuojiApplyPreview(html);
    }

    /* 确认 / 有异议 without leaving the page: the same POST as without JavaScript (the whole form
     * goes along and is kept), answered with the seats' words, swapped in place. */
    var confirmCard = root.querySelector("#draft-confirm");
    if (confirmCard && window.fetch && window.FormData) {
      // Inside the round form (under how it ended), but a note being typed is no change of the round.
      confirmCard.addEventListener("input", function (event) { event.stopPropagation(); });
      confirmCard.addEventListener("click", function (event) {
        var button = event.target.closest && event.target.closest('button[name="verdict"]');
        if (!button || button.disabled) return;
        event.preventDefault();
        var body = new FormData(form);
        body.set("verdict", button.value);
        body.set("draft_client", client);
        button.disabled = true;
        fetch(button.formAction, { method: "POST", body: body, credentials: "same-origin",
                                   headers: { "HX-Request": "true" } })
          .then(function (response) {
            if (response.redirected) { location.href = response.url; return null; }  // recorded meanwhile
            return response.text();
          })
          .then(function (html) {
            if (!html) return;
            var state = document.getElementById("draft-confirm-state");
            if (!state) return;
            var holder = document.createElement("template");
            holder.innerHTML = html;
            var fresh = holder.content.firstElementChild;
            if (fresh) state.replaceWith(fresh);
            var noteField = form.elements.confirm_note || document.querySelector('[name="confirm_note"]');
            if (fresh && !fresh.querySelector("[data-confirm-error]")) {
              if (noteField) noteField.value = "";
              var proxy = root.querySelector("[data-proxy-seat]");
              if (proxy) proxy.value = "";  // the next tap is this phone's own again
            }
          })
          .catch(function () {  // offline: the outbox sends it when the network is back
            if (!(window.zhuojiOutbox && window.zhuojiOutbox.confirm(button.formAction, body))) form.requestSubmit(button);
          })
          .then(function () { button.disabled = false; });
      });
    }

    // app_shell.js shows 没有网络 while the server cannot be reached.
    function network(ok) {
      document.dispatchEvent(new CustomEvent("zhuoji:network", { detail: { ok: ok } }));
    }

    function poll() {
      if (stopped || polling || document.visibilityState !== "visible") return;
      polling = true;
      var query = (url.indexOf("?") < 0 ? "?" : "&") + "since=" + seen + (mine ? "&me=" + mine : "") + "&client=" + encodeURIComponent(client) + "&key=" + encodeURIComponent(keyInput.value);
      fetch(url + query, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { network(true); return response.status === 204 ? null : response.json(); })
        .then(apply)
        .catch(function (error) {
          // offline: what was typed stays here, and is sent when the line is back
          if (error instanceof TypeError) network(false);
        })
        .then(function () {
          polling = false;
          if (!stopped && !inFlight && Object.keys(dirty).length) redraw(form);  // send what is still unsaved
        });
    }
    showPending();
    setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", poll);

    window.addEventListener("beforeunload", function (event) {
      if (!submitting && !stopped && Object.keys(dirty).length) { event.preventDefault(); event.returnValue = ""; }
    });

    var card = mine ? form.querySelector('[data-seat-card="' + mine + '"]') : null;
    if (card) {
      var ending = form.querySelector(".outcome-card");  // how it ended right under it: one thumb, no scrolling (issue 19)
      if (ending) ending.parentNode.insertBefore(card, ending);
      card.classList.add("is-mine");
      var hand = card.querySelector('[data-tile-field="concealed"] input.tile-notation');
      var box = card.querySelector("[data-tile-box]");
      var meiJiao = card.querySelector(".mei-jiao-switch input:checked");  // no hand to type
      if (hand && box && !hand.value && !meiJiao) box.click();
    }
  }

  /* -- the stateless /round/ page: kept in this browser ------------------------------------ */

  function local(root) {
    var form = root.querySelector("form[data-round-form]");
    if (!form) return;
    function save() {
      var data = {};
      fieldNames(form).forEach(function (name) { data[name] = valuesOf(form, name); });
      try { localStorage.setItem(LOCAL_KEY, JSON.stringify(data)); } catch (e) { /* private mode: no memory */ }
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
    redraw(form);
  }

  function forget() {
    try { localStorage.removeItem(LOCAL_KEY); } catch (e) { /* nothing kept */ }
  }

  /* -- a correction: ask before leaving with changes not submitted --------------------------- */

  /* A correction sent back with problems opens at the first of them, not at the top of the form. */
  function openAtProblem(form) {
    var problems = form.querySelector(".net-bar a.net-problems");
    var first = problems && document.getElementById((problems.getAttribute("href") || "").slice(1));
    if (first) first.scrollIntoView({ block: "center" });
  }

  function warn(root) {
    var form = root.querySelector("form[data-round-form]");
    if (!form) return;
    openAtProblem(form);
    var changed = false, submitting = false;
    form.addEventListener("input", function () { changed = true; });
    form.addEventListener("submit", function () { submitting = true; });
    window.addEventListener("beforeunload", function (event) {
      if (changed && !submitting) { event.preventDefault(); event.returnValue = ""; }
    });
  }

  function init() {
    each(document.querySelectorAll("[data-draft]"), shared);
    each(document.querySelectorAll("[data-local-draft]"), local);
    each(document.querySelectorAll("[data-warn-unsaved]"), warn);
    if (document.querySelector("[data-local-draft-done]")) forget();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
