/* 没有网络也不丢 (issue 20): what this phone did to the round being entered is kept in the browser
 * (localStorage) until the server has taken it, and sent when the network is back, without a
 * service worker (WeChat's browser on iPhone has none).
 *
 * One outbox per evening, under the evening's draft address:
 *   {key, base, form, draft, fields: {name: values}, confirms: [{url, pairs}], record: {pairs} | null}
 * - fields: what draft.js holds typed and unsaved (it says so in a "zhuoji:pending" event); a
 *   reload or a closed tab brings them back into the round form, which sends them as typed here.
 * - confirms: a 确认 / 有异议 that htmx could not send, sent in order.
 * - record: 记下这一局 tapped without network; sent, after the changes and the words, with the
 *   round's idempotency key, so however often it is sent the round is recorded once. When
 *   another phone changed this round meanwhile (the draft's own "也改了" words say what), it is
 *   not sent on its own: the table looks first.
 * The page says it: how many changes wait (in the 没有网络 badge), that the standing is the one
 * computed before the network went ("上次算的 HH:MM"), what was sent when it came back. On
 * pages without the round form (the evening page, the offline page) a waiting 记下这一局 or
 * 确认 is sent from its stored copy. Without JavaScript the forms post as before.
 *
 * The round form from the service worker's copy (sw.js marks it, data-kept-copy: the network was
 * gone when it was opened) shows the draft as this phone last opened it online; its round may
 * have been recorded since, and other phones may have typed since. What is typed into it is kept
 * here with that copy's key and version (entry.copy), nothing is sent from it, and when the
 * network is back the page opens itself again from the network. There the typed fields go to
 * the round being entered now, against the copy's version (the server's per-field merge keeps
 * other phones' changes and names each clash), or, if the copy's round was recorded or thrown
 * away meanwhile, into the new round with every field another phone wrote named; a 记下这一局 or
 * 确认 tapped on the copy is then not sent on its own: the table looks at the merged round first.
 */
(function () {
  "use strict";

  var PREFIX = "zhuoji-outbox:";
  var SEEN = "zhuoji-seen:";  // the round form as this phone last held it online, per evening: shown on the worker's copy
  var RETRY_MS = 2000;
  var words = document.querySelector("[data-outbox-words]");
  var online = navigator.onLine !== false;

  function word(name, n) {
    var text = (words && words.getAttribute("data-" + name)) || "";
    return n === undefined ? text : text.replace("{n}", n);
  }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function load(id) {
    try { return JSON.parse(localStorage.getItem(PREFIX + id) || "null"); } catch (e) { return null; }
  }

  function size(entry) {
    return entry ? Object.keys(entry.fields).length + entry.confirms.length + (entry.record ? 1 : 0) : 0;
  }

  function keep(id, entry) {
    try {
      if (size(entry)) localStorage.setItem(PREFIX + id, JSON.stringify(entry));
      else localStorage.removeItem(PREFIX + id);
    } catch (e) { /* private mode or full: the page still holds it while it is open */ }
  }

  function everyOutbox() {
    var found = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var name = localStorage.key(i);
        if (name && name.indexOf(PREFIX) === 0) found.push(name.slice(PREFIX.length));
      }
    } catch (e) { /* nothing kept */ }
    return found;
  }

  function valuesOf(form, name) {
    var out = [];
    each(form.elements, function (el) {
      if (el.name !== name || el.disabled) return;
      if (el.type === "checkbox" || el.type === "radio") { if (el.checked) out.push(el.value); }
      else out.push(el.value);
    });
    return out;
  }

  function setValues(form, name, values) {
    each(form.elements, function (el) {
      if (el.name !== name) return;
      if (el.type === "checkbox" || el.type === "radio") el.checked = values.indexOf(el.value) >= 0;
      else el.value = values.length ? values[0] : "";
    });
  }
  /* The round's own fields and their values, as a page keeps them in this browser (not the key,
   * the version, the token): the worker's copy here, the stateless /round/ page in draft.js. */
  function snapshot(form) {
    var values = {};
    each(form.elements, function (el) {
      var name = el.name;
      if (!name || el.type === "submit" || name === "csrfmiddlewaretoken" || name === "idempotency_key" ||
          name.indexOf("draft_") === 0 || values[name]) return;
      values[name] = valuesOf(form, name);
    });
    return values;
  }
  window.zhuojiFields = { valuesOf: valuesOf, setValues: setValues, snapshot: snapshot };  // draft.js reads and fills fields alike

  function pairsOf(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) { pairs.push([name, String(value)]); });
    return pairs;
  }

  /* `pairs` with `name`'s values replaced. */
  function withValues(pairs, name, values) {
    return pairs.filter(function (pair) { return pair[0] !== name; }).concat(values.map(function (v) { return [name, v]; }));
  }

  function bodyOf(pairs) {
    var body = new FormData();
    var token = document.querySelector("[name=csrfmiddlewaretoken]");
    pairs.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token.value : pair[1]);
    });
    return body;
  }

  function post(url, pairs, headers) {
    return fetch(url, { method: "POST", body: bodyOf(pairs), credentials: "same-origin", headers: headers || {} });
  }

  /* Did the draft with `key` become a round? {recorded, url}, {deleted}, or {} (not yet). */
  function fate(draftUrl, key) {
    return fetch(draftUrl + "?draft_base=0&draft_client=outbox&idempotency_key=" + encodeURIComponent(key), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.status === 200 ? response.json() : {}; })
      .then(function (data) {
        if (data.recorded) return { recorded: data.recorded, url: data.url };
        if (data.gone && data.deleted) return { deleted: data.deleted };
        return {};
      });
  }

  function recordedAt(response) {
    var match = response.redirected && /\/rounds\/(\d+)\/$/.exec(new URL(response.url).pathname);
    return match ? { recorded: match[1], url: response.url } : null;
  }

  /* 409: another phone changed the round after this one last saw it; the server kept this
   * phone's changes in the draft and stored nothing (the table looks first). */
  function heldBy(response) { return response.status === 409 ? { held: true } : null; }

  function hhmm(date) {
    return ("0" + date.getHours()).slice(-2) + ":" + ("0" + date.getMinutes()).slice(-2);
  }

  /* The count in the 没有网络 badge: every outbox on this phone. */
  function showCount() {
    var total = 0;
    everyOutbox().forEach(function (id) { total += size(load(id)); });
    each(document.querySelectorAll("[data-outbox-count]"), function (el) {
      el.textContent = total ? word("waiting", total) : "";
      el.hidden = !total;
    });
    return total;
  }

  function network(ok) {
    online = ok;
    document.dispatchEvent(new CustomEvent("zhuoji:outbox-network"));
  }
  document.addEventListener("zhuoji:network", function (event) { network(!!event.detail.ok); });
  document.addEventListener("htmx:sendError", function () { network(false); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) network(true);
  });
  window.addEventListener("offline", function () { network(false); });
  window.addEventListener("online", function () { network(true); });

  /* A line the page says: in the round form's submit bar, else under the page's header. */
  function say(place, text, href) {
    if (!place) return;
    place.textContent = "";
    place.hidden = !text;
    if (!text) return;
    if (href) {
      var link = document.createElement("a");
      link.href = href;
      link.textContent = text;
      place.appendChild(link);
    } else {
      place.textContent = text;
    }
  }

  /* -- the round form of an evening -------------------------------------------------------- */

  function roundForm(root) {
    var form = root.querySelector("form[data-round-form]");
    if (!form || !form.elements.idempotency_key) return;
    var id = root.getAttribute("data-draft-url");
    var keyInput = form.elements.idempotency_key;
    var baseInput = form.elements.draft_base;
    var entry = load(id);
    var sending = false, clash = false, waited = 0, ready = false, reopening = false, lookFirst = false;
    // The worker's copy (the time it was kept), opened without network: its key and version are
    // the round as it was then, whatever a poll may say once the network is back.
    var kept = Number(root.getAttribute("data-kept-copy")) || 0;
    var copyKey = keyInput.value, copyBase = Number(baseInput.value) || 0;
    if (kept) online = false;
    var computedAt = kept ? new Date(kept) : new Date();  // the standing on the page is the server's as of then

    // The copy was kept when the form was last opened; this phone may have seen (and typed)
    // more of the same round since: that goes in, with the version it was at.
    var lastSeen = null;
    if (kept) {
      try { lastSeen = JSON.parse(localStorage.getItem(SEEN + id) || "null"); } catch (e) { lastSeen = null; }
      if (lastSeen && lastSeen.key === copyKey && lastSeen.base > copyBase) {
        Object.keys(lastSeen.values).forEach(function (name) {
          if (form.elements[name]) setValues(form, name, lastSeen.values[name]);
        });
        copyBase = lastSeen.base;
        baseInput.value = String(copyBase);
        computedAt = new Date(lastSeen.at);
      } else {
        lastSeen = null;
      }
    }
    var status = root.querySelector("[data-draft-status]");
    var savedStatus = status ? status.textContent : "";  // 边录边存…: not while nothing reaches the server
    var log = root.querySelector("[data-draft-log]");

    var line = document.createElement("p");
    line.className = "outbox-line";
    line.setAttribute("role", "status");
    line.setAttribute("data-outbox-line", "");
    line.hidden = true;
    var bar = form.querySelector(".submit-bar");
    if (bar) bar.insertBefore(line, bar.firstChild); else form.appendChild(line);
    var told = document.querySelector("[data-outbox-told]");  // what was sent: beside the draft's words
    if (told && log) log.parentNode.insertBefore(told, log);

    function blank() {
      return { key: kept ? copyKey : keyInput.value, base: kept ? copyBase : Number(baseInput.value) || 0,
               form: form.action, draft: id, fields: {}, confirms: [], record: null, copy: kept };
    }

    /* The round's own fields as the form holds them (not the words, the key, the version). */
    function roundFields() {
      var names = [];
      each(form.elements, function (el) {
        var name = el.name;
        if (name && el.type !== "submit" && name !== "csrfmiddlewaretoken" && name !== "idempotency_key" &&
            name.indexOf("draft_") !== 0 && !el.closest("#draft-confirm") && names.indexOf(name) < 0) names.push(name);
      });
      return names;
    }

    /* Would the form, as it stands, say something else than `pairs` (what a page held when its
     * 记下这一局 or 确认 was tapped)? `shownOnly`: only where that page showed something (a field
     * empty there and filled in by the table meanwhile is the round going on, not a change). */
    function differs(pairs, shownOnly) {
      var then = {};
      pairs.forEach(function (pair) { (then[pair[0]] = then[pair[0]] || []).push(pair[1]); });
      return roundFields().some(function (name) {
        var was = then[name] || [];
        return (!shownOnly || was.some(Boolean)) && JSON.stringify(valuesOf(form, name)) !== JSON.stringify(was);
      });
    }

    // Typed on a kept copy (entry.copy), now on the form as the network has it: the round the
    // copy showed was recorded or thrown away (movedFrom: its key), or is still being entered,
    // perhaps changed by other phones since. A waiting 记下这一局 or 确认 was said about the round
    // as the copy showed it: sent only if, with what this phone typed, the round is still that,
    // else held for the table to look at first.
    var movedFrom = null, held = false, copied = false;
    if (entry && kept) {
      if (entry.key !== copyKey) { entry.key = copyKey; entry.base = 0; }  // typed for another round: all of it goes back in
      entry.copy = kept;
    } else if (entry && entry.copy) {
      copied = true;
      if (entry.key !== keyInput.value) {
        movedFrom = entry.key;
        entry.key = keyInput.value;
        entry.base = 0;  // every field another phone wrote into this round is named, none silently overwritten
      }
      entry.copy = 0;
    }

    // Typed here before a reload or a closed tab, for the round still being entered: back into
    // the form before draft.js reads it, with the version this phone had seen, so the server can
    // tell what another phone changed meanwhile; sent once draft.js listens (below).
    var restored = [];
    if (entry && entry.key === keyInput.value) {
      Object.keys(entry.fields).forEach(function (name) {
        if (!form.elements[name]) return;
        setValues(form, name, entry.fields[name]);
        restored.push(name);
      });
      if (restored.length && entry.base < (Number(baseInput.value) || 0)) baseInput.value = String(entry.base);
    }
    if (entry && (movedFrom || copied) && (entry.record || entry.confirms.length)) {
      var said = (entry.record ? [entry.record.pairs] : []).concat(entry.confirms.map(function (c) { return c.pairs; }));
      if (movedFrom || said.some(differs)) {
        entry.record = null;
        entry.confirms = [];
        held = !movedFrom;  // moved on: what is said then covers it
      }
    }
    if (copied) keep(id, entry);
    waited = movedFrom || held ? 0 : size(entry);  // what is said then is the round's fate, not a count

    function resend(names) {
      names.forEach(function (name) {
        var el = form.elements[name];
        if (el && el.length !== undefined && !el.tagName) el = el[0];
        if (el) el.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }

    function start() {
      ready = true;
      if (lastSeen) form.dispatchEvent(new Event("input", { bubbles: true }));  // tiles.js draws what went in (no field of its own: nothing counts as typed)
      if (held) say(told, word("copy-held"));
      if (movedFrom) {
        fate(id, movedFrom)
          .then(function (result) { say(told, result.recorded ? word("copy-recorded", result.recorded) : word("copy-moved")); })
          .catch(function () { say(told, word("copy-moved")); });
      }
      if (!entry || entry.key === keyInput.value) {
        resend(restored);
        render();
        return;
      }
      // The round this phone was entering is no longer the one the form holds: if it became a
      // round, that is said; if not (thrown away), what was typed here goes into this one.
      var old = entry;
      fate(id, old.key).then(function (result) {
        if (result.recorded) {
          entry = null;
          say(told, word("recorded", result.recorded), result.url);
        } else {
          entry = blank();
          entry.record = old.record;
          Object.keys(old.fields).forEach(function (name) {
            if (form.elements[name]) setValues(form, name, old.fields[name]);
          });
          resend(Object.keys(old.fields));
        }
        keep(id, entry);
        render();
      }).catch(function () { network(false); render(); });
    }

    function render() {
      var n = showCount();
      if (!online && size(entry) > waited) waited = size(entry);
      var texts = [];
      if (!online) texts.push(word("stale").replace("{time}", hhmm(computedAt)));
      if (entry && entry.record) texts.push(word("queued"));
      if (lookFirst) texts.push(word("held"));  // by the button too: the top of the page is out of sight
      say(line, texts.join(" · "));
      say(root.querySelector("[data-confirm-waiting]"), entry && entry.confirms.length ? word("confirm-queued") : "");
      status = root.querySelector("[data-draft-status]");  // the draft bar is swapped by each save
      if (status) status.textContent = online ? savedStatus : kept ? word("kept").replace("{time}", hhmm(computedAt)) : word("offline");
      root.setAttribute("data-outbox", String(n));
    }

    document.addEventListener("zhuoji:pending", function (event) {
      if (event.detail.form !== form || !ready) return;  // draft.js's first count comes before the restored fields
      var names = event.detail.names;
      if (reopening && !names.length) return;  // a poll's answer about the copy's round, not a change of this phone's
      if (!entry) entry = blank();
      entry.key = kept ? copyKey : keyInput.value;
      entry.fields = {};
      names.forEach(function (name) { entry.fields[name] = valuesOf(form, name); });
      if (names.length && !kept) entry.base = event.detail.base;
      if (entry.record) names.forEach(function (name) { entry.record.pairs = withValues(entry.record.pairs, name, valuesOf(form, name)); });  // this phone's own typing since
      keep(id, entry);
      setTimeout(next, 0);  // after draft.js has read the answer's words
      render();
    });

    // The draft's words while this phone catches up: another phone changed what it changed too,
    // the round went on without it. A waiting 记下这一局 waits for the table then.
    if (log && window.MutationObserver) {
      new MutationObserver(function () { if (waited) clash = true; }).observe(log, { childList: true });
    }

    form.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.elt === form && event.detail.successful) computedAt = new Date();
    });

    // What this page holds while the network is there (every change, every poll that filled
    // something in): for the worker's copy, should the page be opened again without network.
    var seenTimer = null;
    var copies = "serviceWorker" in navigator;  // no worker (WeChat): no copy to show it in
    function remember() {
      seenTimer = null;
      if (kept || reopening || !online || root.classList.contains("is-recorded")) return;
      try {
        localStorage.setItem(SEEN + id, JSON.stringify({ key: keyInput.value, base: Number(baseInput.value) || 0,
                                                         at: Date.now(), values: snapshot(form) }));
      } catch (e) { /* full or private: the copy shows what it was kept with */ }
    }
    form.addEventListener("input", function () {
      if (copies && !seenTimer) seenTimer = setTimeout(remember, 500);
    });

    form.addEventListener("submit", function (event) {
      var by = event.submitter;
      if (by && by.name === "verdict") return;
      if (!kept && online && navigator.onLine !== false) return;  // as without JavaScript
      event.preventDefault();
      if (!entry) entry = blank();
      // the round as this page shows it now (and which button: 保存修改 is not 看看改了什么): sent
      // if what it shows is still so when the network is back (the table may fill in the rest)
      entry.record = { pairs: pairsOf(form).concat(by && by.name ? [[by.name, by.value]] : []) };
      lookFirst = false;
      keep(id, entry);
      render();
    });

    document.addEventListener("zhuoji:outbox-network", function () {
      if (online && kept) { reopen(); return; }
      if (online) setTimeout(next, 0);
      render();
    });

    /* -- the worker's copy: nothing is sent from it; the network back, the page as it is now ---- */
    function reopen() {
      if (reopening) return;
      reopening = true;
      keep(id, entry);
      location.reload();
    }
    window.addEventListener("beforeunload", function (event) {  // before draft.js's: what was typed is kept here, no "leave?" question
      if (reopening) event.stopImmediatePropagation();
    });
    if (kept) {
      // The live preview would save under the copy's key and version: not from here. The draft's
      // poll still goes: its failing is how the page knows it is offline, and its first answer
      // that the network is back, when the page opens itself again from the network.
      document.addEventListener("htmx:beforeRequest", function (event) {
        if (!event.detail.elt.hasAttribute("data-draft-poll")) event.preventDefault();
      });
      // A 确认 / 有异议 said about the copy waits with the rest (and is held if the round moved on).
      root.addEventListener("click", function (event) {
        var button = event.target.closest && event.target.closest('button[name="verdict"]');
        if (!button) return;
        event.preventDefault();
        event.stopPropagation();
        holdConfirm(button);
      }, true);
    }
    // One that htmx could not send (no network) waits too.
    root.addEventListener("htmx:sendError", function (event) {
      if (event.detail.elt.name === "verdict") holdConfirm(event.detail.elt);
    });

    function done(text, href) {
      sending = false;
      keep(id, entry);
      if (text) say(told, text, href);
      render();
      next();
    }

    /* The next thing to send, in order: typed changes (draft.js), 确认 / 有异议, 记下这一局. */
    function next() {
      if (!online || sending || kept) return;
      if (root.classList.contains("is-recorded")) {  // recorded meanwhile: draft.js says so
        if (entry && (entry.record || entry.confirms.length)) { entry = null; keep(id, entry); render(); }
        return;
      }
      if (!entry || root.getAttribute("data-draft-pending") !== "0") return;
      if (entry.confirms.length) {
        sending = true;
        post(entry.confirms[0].url, entry.confirms[0].pairs, { "HX-Request": "true" })
          .then(function () { entry.confirms.shift(); done(); })
          .catch(function () { sending = false; network(false); });
        return;
      }
      if (entry.record) {
        if (clash || differs(entry.record.pairs, true)) {  // another phone changed what this page showed: the table looks first
          entry.record = null;
          clash = false;
          waited = 0;
          lookFirst = true;
          done(word("held"));
          return;
        }
        sending = true;
        var by = entry.record.pairs.filter(function (pair) { return pair[0] === "save"; });  // 保存修改, not 看看改了什么
        post(form.action, pairsOf(form).concat(by))
          .then(function (response) { return heldBy(response) || recordedAt(response) || fate(id, keyInput.value); })
          .then(function (result) {
            entry.record = null;
            waited = 0;  // the round's fate is what to say, not the changes that went before it
            if (result.recorded) done(word("recorded", result.recorded), result.url);
            else if (result.deleted) done(word("deleted", result.deleted));
            else {
              lookFirst = Boolean(result.held);
              done(word(result.held ? "held" : "refused"));
            }
          })
          .catch(function () { sending = false; network(false); });
        return;
      }
      if (waited && !size(entry)) {
        done(word("sent", waited));
        waited = 0;
        clash = false;
      }
    }

    /* A 确认 / 有异议 kept to be sent in order: the whole form as its button would post it. */
    function holdConfirm(button) {
      if (!entry) entry = blank();
      entry.confirms.push({ url: button.formAction, pairs: withValues(pairsOf(form), "verdict", [button.value]) });
      keep(id, entry);
      network(false);
    }

    setInterval(function () { if (size(entry)) next(); }, RETRY_MS);
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else setTimeout(start, 0);
  }

  /* -- any other page: what waits is sent from its stored copy, or the page says where ------- */

  function elsewhere() {
    var place = document.querySelector("[data-outbox-told]");
    var sending = false;

    function sendOne(id, entry) {
      if (entry.confirms.length) {
        return post(entry.confirms[0].url, entry.confirms[0].pairs, { "HX-Request": "true" })
          .then(function () { entry.confirms.shift(); keep(id, entry); return sendOne(id, entry); });
      }
      if (!entry.record) return Promise.resolve();
      // Another phone changed this round since this phone last saw it: not recorded on its own.
      var client = (entry.record.pairs.filter(function (p) { return p[0] === "draft_client"; })[0] || [])[1] || "";
      return fetch(entry.draft + "?draft_base=" + entry.base + "&draft_client=" + encodeURIComponent(client) +
                   "&idempotency_key=" + encodeURIComponent(entry.key), { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.status === 200 ? response.json() : {}; })
        .then(function (data) {
          if (data.recorded) { keep(id, null); say(place, word("recorded", data.recorded), data.url); return null; }
          var mine = {};
          entry.record.pairs.forEach(function (p) { (mine[p[0]] = mine[p[0]] || []).push(p[1]); });
          var changed = Object.keys(data.fields || {}).some(function (name) {
            return JSON.stringify(data.fields[name]) !== JSON.stringify(mine[name] || []);
          });
          if (changed) {
            entry.record = null;
            keep(id, entry);
            say(place, word("held"), entry.form);
            return null;
          }
          return post(entry.form, entry.record.pairs)
            .then(function (response) { return heldBy(response) || recordedAt(response) || fate(entry.draft, entry.key); })
            .then(function (result) {
              keep(id, null);
              if (result.recorded) say(place, word("recorded", result.recorded), result.url);
              else if (result.deleted) say(place, word("deleted", result.deleted));
              else say(place, word(result.held ? "held" : "refused"), entry.form);
            });
        });
    }

    function run() {
      var total = showCount();
      var offlinePage = document.querySelector("[data-outbox-offline]");
      if (offlinePage) say(offlinePage, total ? word("offline-page", total) : "");
      if (!total || sending) return;
      if (offlinePage) {  // the page the phone could not open: opened again when the network is back
        fetch(words ? words.getAttribute("data-probe") : "/", { cache: "no-store", credentials: "same-origin" })
          .then(function () { location.reload(); })
          .catch(function () {});
        return;
      }
      sending = true;
      var chain = Promise.resolve();
      everyOutbox().forEach(function (id) {
        chain = chain.then(function () {
          var entry = load(id);
          if (!entry) return null;
          if (entry.copy || (!entry.record && !entry.confirms.length)) {  // typed only, or on a kept copy: the round form sends it
            if (place && place.hidden) say(place, word("elsewhere", size(entry)), entry.form);
            return null;
          }
          return sendOne(id, entry);
        });
      });
      chain.catch(function () { network(false); }).then(function () { sending = false; showCount(); });
    }
    run();
    setInterval(run, RETRY_MS);
  }

  function init() {
    var root = document.querySelector("[data-draft]");
    if (root) roundForm(root);
    else elsewhere();
  }

  // Run before draft.js (this script comes first), so that what this phone typed is in the form
  // when draft.js reads it.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
