/* The replay viewer (templates/games/replay.html, docs/replay.md).
 *
 * All the data arrives once in <script type="application/json" id="replay-data"> (the format
 * hand-and-foot-replay/1 of handfoot/timeline.py): per round the table after the deal and,
 * per event, only what changed. Stepping rebuilds tables from those changes: no request.
 * The address names the moment (#r2-s35: round 2 after 35 events) so it can be shared.
 */
(function () {
  "use strict";
  var dataNode = document.getElementById("replay-data");
  var root = document.getElementById("replay");
  if (!dataNode || !root) { return; }
  var data = JSON.parse(dataNode.textContent);
  var PER_INDEX = { hands: 1, feet: 1, melds: 1, scores: 1, on_foot: 1 };
  var SUITS = { S: ["\u2660", "spades"], H: ["\u2665", "hearts"], D: ["\u2666", "diamonds"], C: ["\u2663", "clubs"] };
  var RANKS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  var MELD_WORDS = { A: "aces", T: "10s", J: "jacks", Q: "queens", K: "kings", wild: "wild cards" };
  var tables = {};  // round number -> [table after 0..n events], built on first visit
  var at = { round: 1, step: 0 };
  var viewSeat = -1;  // -1: every hand face up

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function apply(table, change) {
    var out = {};
    Object.keys(table).forEach(function (k) { out[k] = table[k]; });
    Object.keys(change).forEach(function (k) {
      if (PER_INDEX[k]) {
        var items = out[k].slice();
        Object.keys(change[k]).forEach(function (i) { items[Number(i)] = change[k][i]; });
        out[k] = items;
      } else {
        out[k] = change[k];
      }
    });
    return out;
  }

  function roundTables(n) {
    if (!tables[n]) {
      var rnd = data.rounds[n - 1];
      var list = [rnd.start];
      rnd.steps.forEach(function (s) { list.push(apply(list[list.length - 1], s.change)); });
      tables[n] = list;
    }
    return tables[n];
  }

  function cardWords(c) {
    if (c === "JK") { return "joker"; }
    return (RANKS[c[0]] || c[0]) + " of " + SUITS[c[1]][1];
  }

  function card(c) {
    var suit = c === "JK" ? "joker" : SUITS[c[1]][1];
    var node = el("span", "pc pc-" + suit);
    var face = c === "JK" ? "\u2605" : (c[0] === "T" ? "10" : c[0]) + SUITS[c[1]][0];
    var shown = el("span", null, face);
    shown.setAttribute("aria-hidden", "true");
    node.appendChild(shown);
    node.appendChild(el("span", "visually-hidden", cardWords(c)));
    return node;
  }

  function cardList(cards, label) {
    var list = el("ul", "pc-list");
    list.setAttribute("aria-label", label);
    cards.forEach(function (c) { var li = el("li"); li.appendChild(card(c)); list.appendChild(li); });
    return list;
  }

  function sideName(k) { return data.side_names[k]; }
  function seatName(s) { return "Seat " + (s + 1) + ": " + data.seats[s]; }

  function seatPanel(table, s) {
    var panel = el("section", "replay-seat" + (table.turn === s ? " to-play" : ""));
    panel.setAttribute("aria-label", seatName(s));
    var head = el("h3", null, seatName(s));
    if (!data.individual) { head.appendChild(el("span", "muted small", " \u00b7 " + sideName(data.side_of[s]))); }
    if (table.turn === s) { head.appendChild(el("span", "badge", "to play")); }
    panel.appendChild(head);
    var hand = table.hands[s];
    var hidden = viewSeat >= 0 && viewSeat !== s;
    var what = table.on_foot[s] ? "Playing from the foot" : "Hand";
    panel.appendChild(el("p", "small", what + ": " + hand.length + " card" + (hand.length === 1 ? "" : "s") + (hidden ? " (hidden)" : "")));
    if (!hidden) { panel.appendChild(cardList(hand, data.seats[s] + "'s hand")); }
    var foot = table.feet[s];
    if (foot.length) {
      panel.appendChild(el("p", "small", "Foot: " + foot.length + " cards, not picked up" + (hidden ? " (hidden)" : "")));
      if (!hidden) { panel.appendChild(cardList(foot, data.seats[s] + "'s foot")); }
    }
    return panel;
  }

  function points(n) {
    return (n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString("en-US");
  }

  function meldLabel(m) {
    var rank = MELD_WORDS[m.rank] || (m.rank + "s");
    return rank + ": " + m.state + (m.book ? " book" : " meld");
  }

  function sidePanel(table, k) {
    var panel = el("section", "replay-side");
    panel.setAttribute("aria-label", sideName(k) + " melds");
    var seats = data.seats.filter(function (_n, s) { return data.side_of[s] === k; });
    var head = el("h3", null, sideName(k) + (data.individual ? "" : " (" + seats.join(" & ") + ")"));
    head.appendChild(el("span", "replay-score", " " + points(table.scores[k]) + " if the round ended now"));
    panel.appendChild(head);
    var melds = table.melds[k];
    if (!melds.length) {
      // At the deal a side scores minus every card its players hold (hands and feet): say so,
      // or a reader sees "-815" with nothing played and wonders what went wrong.
      panel.appendChild(el("p", "muted small", "Nothing laid down yet." + (table.scores[k] < 0
        ? " Until it lays down, the cards its players hold count against it: that is the "
          + points(table.scores[k]) + "." : "")));
    }
    var list = el("ul", "replay-melds");
    melds.forEach(function (m) {
      var li = el("li", "meld meld-" + m.state + (m.book ? " meld-book" : ""));
      li.appendChild(el("span", "meld-label", meldLabel(m)));
      li.appendChild(cardList(m.cards, meldLabel(m)));
      list.appendChild(li);
    });
    panel.appendChild(list);
    return panel;
  }

  function centre(table) {
    var box = el("section", "replay-centre");
    box.setAttribute("aria-label", "Discard pile and stock");
    var pile = table.pile;
    var p = el("p", null, "Discard pile: " + pile.size + " card" + (pile.size === 1 ? "" : "s"));
    if (pile.top) { p.appendChild(document.createTextNode(", on top ")); p.appendChild(card(pile.top)); }
    if (pile.frozen) { p.appendChild(el("span", "badge warn", "frozen")); }
    if (pile.blocked) { p.appendChild(el("span", "badge warn", "blocked by a 3")); }
    box.appendChild(p);
    box.appendChild(el("p", null, "Stock: " + table.stock + " cards"));
    return box;
  }

  function turnOf(rnd, step) { return step === 0 ? 0 : rnd.steps[step - 1].turn; }

  function describe(rnd, step) {
    var words = step === 0 ? "The deal (round " + rnd.round + ", dealt by " + data.seats[rnd.dealer] + ")"
      : rnd.steps[step - 1].text;
    return "Round " + rnd.round + ", turn " + turnOf(rnd, step) + ", step " + step + " of " + rnd.steps.length + ": " + words;
  }

  function renderMoments(rnd) {
    var list = document.getElementById("replay-moments");
    list.textContent = "";
    rnd.moments.forEach(function (m) {
      var li = el("li", m.step <= at.step ? "past" : "");
      if (m.step === at.step) { li.className = "now"; }
      var a = el("a", null, m.text);
      a.href = "#r" + rnd.round + "-s" + m.step;
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  function render() {
    var rnd = data.rounds[at.round - 1];
    var table = roundTables(at.round)[at.step];
    var board = document.getElementById("replay-table");
    board.textContent = "";
    var sides = el("div", "replay-sides");
    for (var k = 0; k < data.sides; k++) { sides.appendChild(sidePanel(table, k)); }
    board.appendChild(sides);
    board.appendChild(centre(table));
    var seats = el("div", "replay-seats");
    for (var s = 0; s < data.seats.length; s++) { seats.appendChild(seatPanel(table, s)); }
    board.appendChild(seats);
    document.getElementById("replay-now").textContent = describe(rnd, at.step);
    var range = document.getElementById("replay-step");
    range.max = String(rnd.steps.length);
    range.value = String(at.step);
    range.setAttribute("aria-valuetext", describe(rnd, at.step));
    document.getElementById("replay-step-label").textContent = "Step in round " + rnd.round + " (0 to " + rnd.steps.length + ")";
    Array.prototype.forEach.call(document.querySelectorAll("[data-round-tab]"), function (b) {
      b.setAttribute("aria-pressed", String(Number(b.getAttribute("data-round-tab")) === at.round));
    });
    renderMoments(rnd);
    var hash = "#r" + at.round + "-s" + at.step;
    if (window.location.hash !== hash) { window.history.replaceState(null, "", hash); }
  }

  function go(round, step) {
    var n = data.rounds.length;
    round = Math.min(Math.max(round, 1), n);
    var last = data.rounds[round - 1].steps.length;
    at = { round: round, step: Math.min(Math.max(step, 0), last) };
    render();
  }

  function stepBy(delta) {
    var rnd = data.rounds[at.round - 1];
    var step = at.step + delta;
    if (step > rnd.steps.length && at.round < data.rounds.length) { go(at.round + 1, 0); return; }
    if (step < 0 && at.round > 1) { go(at.round - 1, data.rounds[at.round - 2].steps.length); return; }
    go(at.round, step);
  }

  function firstStepOfTurn(rnd, turn) {
    if (turn <= 0) { return 0; }
    for (var i = 0; i < rnd.steps.length; i++) { if (rnd.steps[i].turn >= turn) { return i + 1; } }
    return rnd.steps.length;
  }

  function turnBy(delta) {
    var rnd = data.rounds[at.round - 1];
    var turn = turnOf(rnd, at.step);
    if (delta > 0) {
      var next = firstStepOfTurn(rnd, turn + 1);
      if (next <= at.step) { stepBy(1); } else { go(at.round, next); }
    } else {
      var start = firstStepOfTurn(rnd, turn);
      go(at.round, start < at.step ? start : firstStepOfTurn(rnd, turn - 1));
    }
  }

  function fromHash() {
    var m = /^#r(\d+)-s(\d+)$/.exec(window.location.hash);
    if (m) { go(Number(m[1]), Number(m[2])); return true; }
    return false;
  }

  var actions = {
    "first": function () { go(1, 0); },
    "prev-round": function () { go(at.step > 0 ? at.round : at.round - 1, 0); },
    "prev-turn": function () { turnBy(-1); },
    "prev-step": function () { stepBy(-1); },
    "next-step": function () { stepBy(1); },
    "next-turn": function () { turnBy(1); },
    "next-round": function () { if (at.round < data.rounds.length) { go(at.round + 1, 0); } else { go(at.round, Infinity); } },
    "last": function () { go(data.rounds.length, Infinity); }
  };

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-go]");
    if (button) { actions[button.getAttribute("data-go")](); return; }
    var tab = event.target.closest("[data-round-tab]");
    if (tab) { go(Number(tab.getAttribute("data-round-tab")), 0); }
  });
  document.getElementById("replay-step").addEventListener("input", function (event) {
    go(at.round, Number(event.target.value));
  });
  document.getElementById("replay-view").addEventListener("change", function (event) {
    viewSeat = Number(event.target.value);
    render();
  });
  document.getElementById("replay-colours").addEventListener("change", function (event) {
    root.classList.toggle("four-colour", event.target.checked);
  });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target.closest && target.closest("input, select, textarea")) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var keys = {
      ArrowRight: event.shiftKey ? "next-turn" : "next-step",
      ArrowLeft: event.shiftKey ? "prev-turn" : "prev-step",
      ArrowDown: "next-turn", ArrowUp: "prev-turn",
      PageDown: "next-round", PageUp: "prev-round"
    };
    if (event.key === "Home") { go(at.round, 0); } else if (event.key === "End") { go(at.round, Infinity); } else if (keys[event.key]) { actions[keys[event.key]](); } else { return; }
    event.preventDefault();
  });
  window.addEventListener("hashchange", fromHash);
  root.hidden = false;
  document.getElementById("replay-needs-js").hidden = true;
  if (!fromHash()) { go(1, 0); }
}());
