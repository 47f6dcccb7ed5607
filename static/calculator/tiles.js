/* 牌键盘: tap tiles into a seat's notation input (e.g. 123m55p); it also fills the meld rows,
 * 胡的那张 and 翻牌, and presses the server's one-tap answers (data-set-fields). The fields stay the
 * form's own: the page works without this script. Drawn here, in the tap's frame, is only what a
 * phone must see before the server can answer (chips, count, keyboard); every change fires
 * `input`, which makes htmx post the preview. Why each part is here: docs/WEB.md, "The tile keyboard".
 */
(function () {
  "use strict";

  var SUITS = "mps";
  var SUIT_HANZI = { m: "万", p: "筒", s: "条" };
  var FIELDS = "input, select, textarea";
  var ALIASES = { "万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s", M: "m", P: "p", S: "s",
                  "一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9" };

  var keyboard = null;  // the keyboard element
  var active = null;    // the input the keyboard writes to
  var added = {};       // input id -> tiles added by key, for ⌫
  var meldKind = null;  // a meld key pressed, waiting for its tile
  var groupKind = null; // 顺 ("run") or 刻 ("set") pressed, waiting for its tile
  var lastMeld = null;  // {input, row}: the meld the keyboard just entered, what ⌫ takes back first
  var pendingRow = null; // the meld row whose "whose discard" buttons are showing

  /* "123m55p" -> ["1m", "2m", "3m", "5p", "5p"]; null when the text is not notation (R2). */
  function parse(text) {
    text = Array.from(text, function (ch) { return ALIASES[ch] || ch; }).join("").replace(/[\s,，]/g, "");
    if (!/^([1-9]+[mps])*$/.test(text)) return null;
    return (text.match(/[1-9]+[mps]/g) || []).flatMap(function (group) {
      return Array.from(group.slice(0, -1), function (rank) { return rank + group.slice(-1); });
    });
  }

  function sorted(tiles) { return tiles.slice().sort(function (a, b) { return SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || a[0] - b[0]; }); }

  /* ["5p", "1m", "5p"] -> "1m55p", the form scoring reads: in order, a suit said once after its ranks. */
  function format(tiles) { return sorted(tiles).join("").replace(/([mps])(?=\d\1)/g, ""); }

  /* A tile's chip as the server draws it (partials/_entry_tile_chip.html, each tile's in the keyboard's <template>). */
  var chips = document.querySelector("template[data-tile-chips]");
  function chip(code) { return chips.content.querySelector('[data-tile="' + code + '"]').outerHTML; }

  function boxOf(input) { return document.querySelector('[data-tile-box][data-for="' + input.id + '"]'); }

  /* 荒庄 chosen, and whether the page knows yet how the round ended (荒庄, or who won). */
  function isDraw(form) { return Boolean(form.querySelector('input[value="draw"]:checked')); }
  function endingKnown(form) { return isDraw(form) || Boolean(form.querySelector(".winner-switch input:checked")); }

  function wins(card) {
    var form = card.closest("form"), seat = card.getAttribute("data-seat-card");
    return !isDraw(form) && Boolean(form.querySelector('.winner-switch input[value="' + seat + '"]:checked'));
  }

  /* 没叫（没亮牌）: the seat shows no hand, nothing to count or type but its melds. */
  function hidesHand(card) { return Boolean(card.querySelector(".mei-jiao-switch input:checked")); }

  /* For a hand: tiles counted as R5 does (a kong stands for three), what it should come to, and
   * the most it may come to: its count once the page knows who won (or that nobody did), else 14. */
  function countOf(input, tiles) {
    var card = cardOf(input), known = endingKnown(input.closest("form"));
    var melds = Array.from(card.querySelectorAll("select.meld-kind")).filter(function (s) { return s.value; });
    var have = tiles.length + 3 * melds.length;
    var want = wins(card) || (!known && have === 14) ? 14 : 13;  // 14, nobody won yet: likely his
    return { have: have, want: want, limit: known ? want : 14 };
  }

  /* The tiles 顺 / 刻 / a plain key types from `code`; null where a run would leave the suit. */
  function groupFrom(code, kind) {
    if (kind === "set") return [code, code, code];
    if (kind !== "run") return [code];
    var rank = Number(code[0]);
    return rank > 7 ? null : [code, (rank + 1) + code[1], (rank + 2) + code[1]];
  }

  /* Whether `group` added to `tiles` keeps every tile at four copies or fewer. */
  function fits(tiles, group) {
    if (!group) return false;
    var held = {};
    tiles.concat(group).forEach(function (t) { held[t] = (held[t] || 0) + 1; });
    return group.every(function (t) { return held[t] <= 4; });
  }

  /* A hand's count such as 13/13, from the page as it is now (an answer may be older). */
  function renderCount(input, tiles) {
    var counter = document.querySelector('[data-count-for="' + input.id + '"]');
    if (!counter || tiles === null || hidesHand(cardOf(input))) return null;  // 没叫: no hand to count, the server says "—"
    var count = countOf(input, tiles), text = count.have + "/" + count.want;
    if (counter.textContent !== text) counter.textContent = text;
    counter.classList.toggle("ok", count.have === count.want);
    return text;
  }

  /* Redraw an input's chips, its count and (when it is the keyboard's) the keyboard. */
  function render(input) {
    var tiles = parse(input.value), box = boxOf(input);
    if (!box || tiles === null) return;
    box.querySelector(".tile-chips").innerHTML = sorted(tiles).map(chip).join("");
    var won = winTileOf(input);
    var mark = won && box.querySelector('.tile-chips .tile[data-tile="' + won + '"]');
    if (mark) mark.classList.add("is-win-tile");
    box.classList.toggle("is-empty", tiles.length === 0);
    box.classList.toggle("is-active", input === active);
    var text = renderCount(input, tiles);
    if (input === active) renderKeys(input, tiles, text);
  }

  /* The keyboard for its input as it stands: the count, 谁胡了 or the meld keys, the keys that may type. */
  function renderKeys(input, tiles, text) {
    keyboard.querySelector("[data-kb-count]").textContent = text || String(tiles.length);
    var ask = asksWinner(input, tiles), melds = keyboard.querySelector("[data-kb-melds]"), asked = keyboard.querySelector("[data-kb-winner]");
    if (ask && !melds.hidden) asked.style.minHeight = melds.offsetHeight + "px";  // 谁胡了 takes the meld keys' place: no key moves
    asked.hidden = !ask;
    melds.hidden = !isHand(input) || ask;
    var meiJiao = isHand(input) && hidesHand(cardOf(input)), count = isHand(input) && countOf(input, tiles);
    var roomy = isHand(input) && !meiJiao && count.limit - count.have >= 3;
    if (!roomy && groupKind) setGroup(null);
    keyboard.querySelectorAll("[data-kb-group]").forEach(function (key) { if (key.disabled === roomy) key.disabled = !roomy; });
    keyboard.querySelectorAll("[data-key]").forEach(function (key) {
      var off = (meiJiao && !meldKind) || !fits(tiles, groupFrom(key.getAttribute("data-key"), groupKind));  // 没叫: a tile only after 碰 / 豆
      if (key.disabled !== off) key.disabled = off;  // an unchanged key costs no restyle
    });
  }

  /* This phone's own hand complete at 13 while nobody is said to have won (nor 荒庄): the keyboard
   * asks who did, and goes on to 胡的哪张 (a 14th tile still types: the winner's own hand). */
  function asksWinner(input, tiles) {
    var card = isHand(input) && cardOf(input);
    return Boolean(card && card.classList.contains("is-mine") && !hidesHand(card) && !endingKnown(card.closest("form")) &&
      countOf(input, tiles).have === 13);
  }

  /* Every hand and one-tile box (who won and who deals are CSS's: app.css, from the form's buttons). */
  function renderAll() {
    document.querySelectorAll("[data-round-form] input.tile-notation, [data-round-form] .tile-one").forEach(render);
  }

  /* -- the keyboard's menus ------------------------------------------------------------------ */

  function isHand(input) { return /-concealed$/.test(input.name); }
  function cardOf(input) { return input.closest("[data-seat-card]"); }
  function formField(form, suffix) { return form.querySelector('[name$="' + suffix + '"]'); }

  /* A field changed as if by hand: the preview, the chips and counts (in this same frame) and drafts follow. */
  function setField(el, value) {
    if (el.type === "checkbox" || el.type === "radio") el.checked = value; else el.value = value;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }

  /* The winning tile, when `input` is a winner's hand. */
  function winTileOf(input) {
    var card = isHand(input) && cardOf(input), select = card && wins(card) && formField(card.closest("form"), "win_tile");
    return select ? select.value : null;
  }

  /* Of the keyboard's toggles `[attr]`, the one whose value is `value` reads as pressed (none: null). */
  function pressOnly(attr, value) {
    keyboard.querySelectorAll("[" + attr + "]").forEach(function (key) {
      key.setAttribute("aria-pressed", String(key.getAttribute(attr) === value));
    });
  }

  /* 顺 / 刻 waiting for a tile (null: neither); the tile keys follow at the next render. */
  function setGroup(kind) {
    groupKind = kind;
    pressOnly("data-kb-group", kind);
    var hint = keyboard.querySelector("[data-kb-hint]"), key = kind && keyboard.querySelector('[data-kb-group="' + kind + '"]');
    if (key) hint.textContent = key.getAttribute("data-hint");
    hint.hidden = !kind;  // what the armed key will do, in words: its letter alone does not say
  }

  function armGroup(kind) {
    hideFrom();
    setGroup(groupKind === kind ? null : kind);
    armMeld(null);  // and draws the keys the group may start from
  }

  function armMeld(kind) {
    meldKind = meldKind === kind ? null : kind;
    if (meldKind && groupKind) setGroup(null);
    if (active) render(active);  // the keys a meld may take
    pressOnly("data-kb-meld", meldKind);
  }

  function hideFrom() {
    pendingRow = null;
    keyboard.querySelector("[data-kb-from]").hidden = true;
  }

  /* 碰 / 豆 then a tile: the seat's next empty meld row gets both, then asks whose discard it was. */
  function addMeld(code) {
    var kind = meldKind;
    armMeld(null);
    var row = Array.from(cardOf(active).querySelectorAll("[data-meld-row]")).find(function (r) { return !r.querySelector("select.meld-kind").value; });
    if (!row) return;  // four melds already
    row.closest("details").open = true;
    setField(row.querySelector("select.meld-kind"), kind);
    setField(row.querySelector('[name$="-tile"]'), code[0] + SUIT_HANZI[code[1]]);
    lastMeld = { input: active, row: row };
    showFrom(row, kind);
  }

  /* Whose discard, and 憨包: which buttons show is app.css's, from the meld's kind and own seat. */
  function showFrom(row, kind) {
    var from = keyboard.querySelector("[data-kb-from]"), late = row.querySelector('input[name$="-late"]');
    from.setAttribute("data-kind", kind);
    from.setAttribute("data-own", cardOf(active).getAttribute("data-seat-card"));
    pressOnly("data-kb-from-seat", row.querySelector("select.meld-from").value);
    keyboard.querySelector("[data-kb-late]").checked = Boolean(late && late.checked);
    pendingRow = row;
    from.hidden = false;
  }

  function chooseFrom(seat) {
    if (!pendingRow) return;
    setField(pendingRow.querySelector("select.meld-from"), seat);
    pressOnly("data-kb-from-seat", seat);  // a 转弯豆 keeps the row open for its 憨包 toggle: which seat was tapped
    if (pendingRow.querySelector("select.meld-kind").value !== "zhuanwan") { hideFrom(); maybeAdvance(); }
  }

  /* A full hand: the keyboard goes on to the next seat still to enter (none left: it closes).
   * Until the page knows who won (or that nobody did), only 14 tiles are surely a full hand. */
  function maybeAdvance() {
    if (!active || !isHand(active) || pendingRow) return;
    var count = countOf(active, parse(active.value) || []);
    if (count.have < count.limit) return;
    if (cardOf(active).classList.contains("is-mine")) { close(); return; }  // this phone's own hand: the rest are for the other phones
    var cards = Array.from(active.closest("form").querySelectorAll("[data-seat-card]")), at = cards.indexOf(cardOf(active));
    var next = cards.slice(at + 1).concat(cards.slice(0, at)).filter(function (card) { return !hidesHand(card); })
      .map(function (card) { return card.querySelector('input.tile-notation[name$="-concealed"]'); })
      .find(function (input) { var its = countOf(input, parse(input.value) || []); return its.have < its.want; });
    if (next) open(next); else close();
  }

  /* A server's one-tap answer ({"hot_kong": "5p"}, {"from_seat": "2", "robbed": true}, by the
   * fields' full names): each field as if set by hand. */
  function setFields(button) {
    var form = button.closest("form"), values = JSON.parse(button.getAttribute("data-set-fields"));
    Object.keys(values).forEach(function (name) {
      var el = form.elements[name], value = values[name], row = el && !el.type && el.length;
      if (row) el = form.querySelector('input[name="' + name + '"][value="' + value + '"]');  // a row of radios or boxes: that one on
      if (el) setField(el, row || value);  // a winner's change event opens the keyboard on 胡的那张
    });
    button.parentNode.querySelectorAll("[data-set-fields]").forEach(function (other) {
      other.setAttribute("aria-pressed", String(other === button));
    });
  }

  /* A winner chosen by hand while 胡的那张 is empty: the keyboard opens on it (then goes on to 翻牌). */
  function askWinTile(input) {
    var form = input.closest("form"), tile = formField(form, "win_tile");
    if (active && isHand(active) && cardOf(active).getAttribute("data-seat-card") === input.value) return;  // his own 14th tile first
    if (input.checked && tile && !tile.value && active !== tile && !isDraw(form)) open(tile);
  }

  /* From a hardware keyboard or a screen reader (Enter/Space on a box: a click of no pointer,
   * `detail` 0) focus moves into the keyboard, and back to the box when it closes; a finger's tap
   * leaves focus where it is. */
  function open(input, withFocus) {
    if (active && active !== input) close();
    active = input;
    var box = boxOf(input);
    keyboard.querySelector("[data-kb-label]").textContent = box.getAttribute("data-label");
    keyboard.hidden = false;
    keyboard.querySelector("[data-kb-melds]").hidden = !isHand(input);  // as the keyboard was, for 谁胡了's height
    document.body.classList.add("kb-open", "kb-room");
    setGroup(null); hideFrom(); armMeld(null);  // nothing armed on a fresh box (armMeld draws the keyboard for it)
    document.documentElement.style.setProperty("--kb-height", keyboard.offsetHeight + "px");  // app.css's scroll-padding
    // A hand shows with its seat's name; a one-tile box just above the keyboard: what was in sight mostly stays.
    if (isHand(input)) cardOf(input).scrollIntoView({ block: "start", behavior: "instant" });
    else box.scrollIntoView({ block: "nearest", behavior: "instant" });
    if (withFocus) (keyboard.querySelector("[data-key]:not(:disabled)") || keyboard.querySelector("[data-kb-meld]")).focus({ preventScroll: true });
  }

  function close() {
    if (!active) return;
    var box = boxOf(active), hadFocus = keyboard.contains(document.activeElement);
    if (box) box.classList.remove("is-active");
    active = null;
    keyboard.hidden = true;
    document.body.classList.remove("kb-open");
    if (hadFocus && box) box.focus({ preventScroll: true });
  }

  function press(code) {
    if (active.matches(".tile-one")) {  // 胡的那张, 翻牌: one key, then on to the menu it leads to (data-then) while empty
      var then = document.getElementById(active.getAttribute("data-then"));
      setField(active, code);
      return then && !then.value ? open(then) : close();
    }
    if (meldKind && isHand(active)) { addMeld(code); return; }
    hideFrom();
    var tiles = parse(active.value) || [], group = groupFrom(code, groupKind);
    if (groupKind) setGroup(null);  // one tile, then 顺 / 刻 is spent, typed or refused
    if (!fits(tiles, group)) { render(active); return; }
    lastMeld = null;
    var stack = added[active.id] = added[active.id] || [];
    group.forEach(function (t) { stack.push(t); });
    setField(active, format(tiles.concat(group)));
    maybeAdvance();
  }

  /* ⌫ takes back what was entered last: the meld just made, else the last tile. */
  function backspace() {
    if (lastMeld && lastMeld.input === active) {
      var row = lastMeld.row;
      lastMeld = null;
      hideFrom();
      ["select.meld-kind", '[name$="-tile"]', "select.meld-from"].forEach(function (sel) { setField(row.querySelector(sel), ""); });
      var late = row.querySelector('input[name$="-late"]');
      if (late && late.checked) setField(late, false);
      return;
    }
    var tiles = sorted(parse(active.value) || []);
    if (!tiles.length) return;
    var stack = added[active.id] || [], code = stack.length ? stack.pop() : tiles[tiles.length - 1], at = tiles.lastIndexOf(code);
    tiles.splice(at < 0 ? tiles.length - 1 : at, 1);
    setField(active, format(tiles));
  }

  function removeChip(input, code) {
    var tiles = parse(input.value) || [], at = tiles.indexOf(code);
    if (at >= 0) tiles.splice(at, 1);
    setField(input, format(tiles));
  }

  /* A seat's new name shows at once wherever the seat is offered as a choice (seat options are
   * the only ones whose value is a bare number); a winner button keeps its name in a span of its
   * own, which the page cuts to two lines. */
  function rename(input) {
    var seat = input.getAttribute("data-seat-name"), name = input.value.trim() || input.placeholder;
    input.closest("form").querySelectorAll('[data-seat-label="' + seat + '"], select option[value="' + seat + '"]').forEach(function (el) {
      (el.querySelector("[data-seat-text]") || el).textContent = name;
    });
  }

  function init() {
    keyboard = document.querySelector("[data-tile-keyboard]");
    if (!keyboard) return;
    document.documentElement.classList.add("js-tiles");

    // A key types on the finger's touch, not on its lift (the click comes tens of ms later); its
    // click then does nothing more, wherever it lands: a key that filled the hand has moved the
    // keyboard on or closed it, and the click would hit what was under it (a seat button, a rule
    // link, 算账). A key worked from the keyboard (Enter, Space) only clicks.
    var pressedAt = 0;
    document.addEventListener("pointerdown", function (event) {
      var key = event.target.closest && event.target.closest("[data-key]");
      pressedAt = 0;
      if (!key || !active || key.disabled || event.button > 0) return;
      event.preventDefault();  // keep the focus where it is: no blur, no scroll
      pressedAt = event.timeStamp;
      press(key.getAttribute("data-key"));
    });
    document.addEventListener("click", function (event) {
      var ours = pressedAt && event.timeStamp - pressedAt <= 1000;  // later: not that touch's click (it never came)
      pressedAt = 0;
      if (ours) { event.preventDefault(); event.stopPropagation(); }
    }, true);
    // The keyboard's buttons, by their attribute: each is handed that attribute's value.
    var actions = {
      "data-key": press, "data-kb-group": armGroup, "data-kb-from-seat": chooseFrom, "data-kb-back": backspace,
      "data-kb-meld": function (kind) { hideFrom(); armMeld(kind); },
      "data-kb-clear": function () { added[active.id] = []; setField(active, ""); },
    };
    document.addEventListener("click", function (event) {
      for (var attr in actions) {
        var button = active && event.target.closest("[" + attr + "]");
        if (button) { actions[attr](button.getAttribute(attr)); return; }
      }
      if (event.target.closest("[data-kb-done]")) { close(); return; }
      var answer = event.target.closest("[data-set-fields]");
      if (answer) { setFields(answer); return; }
      var box = event.target.closest("[data-tile-box]");
      if (box) {
        var input = document.getElementById(box.getAttribute("data-for")), tile = event.target.closest(".tile"), opening = active !== input;
        if (opening || event.detail === 0) open(input, event.detail === 0);  // the first tap opens the keyboard (a winner's chip is 胡的那张 too), never removes
        var code = tile && tile.getAttribute("data-tile"), winTile = winTileOf(input) !== null && formField(input.closest("form"), "win_tile");
        if (code && winTile && winTile.value !== code) setField(winTile, code);  // a winner's chip is 胡的那张 (his standing says so)
        else if (code && !opening) removeChip(input, code);  // a chip tapped again on an open keyboard comes out
      }
    });
    document.addEventListener("keydown", function (event) { if (event.key === "Escape") close(); });
    document.addEventListener("focusin", function (event) {
      if (active && !event.target.closest("[data-tile-keyboard], [data-tile-box], .winner-switch")) close();
    });
    document.addEventListener("change", function (event) {
      if (event.target.matches && event.target.matches(".winner-switch input")) askWinTile(event.target);
    });
    document.addEventListener("input", function (event) {
      var target = event.target, form = target.closest && target.closest("[data-round-form]");
      if (!form) return;
      // What the server is working on no longer matches the page: cancel it, the next one is coming.
      if (window.htmx) window.htmx.trigger(form, "htmx:abort");
      if (target.matches("[data-kb-late]")) {
        if (pendingRow) setField(pendingRow.querySelector('input[name$="-late"]'), target.checked);
        return;
      }
      if (target.matches("[data-seat-name]")) rename(target);
      if (target.matches("input.tile-notation")) render(target);
      else renderAll();  // a meld, a winner or the ending changes what each hand should count
    });
    // An answer's pieces are morphed in (hx-swap-oob="morph"). One equal to the page's is left alone
    // (idiomorph's walk costs a throttled phone half as much again), never a field: a typed value is
    // no attribute, so it would read as equal to the server's empty one.
    document.addEventListener("htmx:oobBeforeSwap", function (event) {
      var target = event.detail.target;
      if (!target.matches(FIELDS) && !target.querySelector(FIELDS) &&
          target.isEqualNode(event.detail.fragment.firstElementChild)) event.detail.shouldSwap = false;
    });
    document.addEventListener("htmx:afterSwap", function (event) {  // the answer's counts catch up with taps made since it left
      var form = event.target.closest && event.target.closest("[data-round-form]");
      if (form) form.querySelectorAll("input.tile-notation").forEach(function (input) { renderCount(input, parse(input.value)); });
    });
    renderAll();
    // This phone's own seat (the server draws it first, with what outbox.js kept put back): its
    // keyboard opens while the hand is empty.
    var mine = document.querySelector("[data-round-form] .seat-card.is-mine");
    var hand = mine && mine.querySelector('input.tile-notation[name$="-concealed"]');
    if (hand && !hand.value && !hidesHand(mine)) open(hand);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
