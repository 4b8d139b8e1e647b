/* Table-side score sheets (the table page and the director's correction form).
 *
 * - Steppers (+/-) for the small counts.
 * - Each side's score as it is typed, from the server's check (the one translation of engine
 *   errors into table words); a problem shows next to its field, and only once the sheet has
 *   been touched (nothing red on an untouched form).
 * - The table page's sheet never loses a round: a round saved while offline, or answered
 *   "busy" (408, 429, 5xx), is kept in localStorage, shown as "waiting to send" and sent again
 *   (back-off, Retry-After) until the server stores it or refuses it; a refusal is shown by the
 *   round with its figures kept. Its idempotency key makes a resend safe. A service worker
 *   (/play/sw.js) keeps the page for a reload without a connection.
 */
(function () {
  "use strict";

  var QUEUE_KEY = "hf-entry-queue";

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
  }

  function csrfToken(el) {
    var form = el.closest("form") || el;
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  /* --- steppers ------------------------------------------------------------------------ */

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.step");
    if (!button) { return; }
    var input = button.parentElement.querySelector("input");
    var value = Number(input.value || 0) + Number(button.dataset.step);
    var max = input.max === "" ? Infinity : Number(input.max);
    input.value = String(Math.max(0, Math.min(max, value)));
    input.dispatchEvent(new Event("input", {bubbles: true}));
  });

  /* --- live check ---------------------------------------------------------------------- */

  function sheetData(sheet) {
    var data = new FormData();
    data.append("csrfmiddlewaretoken", csrfToken(sheet));
    if (sheet.dataset.prefix) { data.append("prefix", sheet.dataset.prefix); }
    sheet.querySelectorAll("input, select").forEach(function (input) {
      if (!input.name || input.name === "csrfmiddlewaretoken") { return; }
      if ((input.type === "checkbox" || input.type === "radio") && !input.checked) { return; }
      data.append(input.name, input.value);
    });
    return data;
  }

  function showErrors(sheet, errors, touched) {
    if (!touched) { return; }  // untouched: nothing red (the server's own errors stay shown)
    var prefix = sheet.dataset.prefix ? sheet.dataset.prefix + "-" : "";
    sheet.querySelectorAll(".field-error[data-error-for]").forEach(function (p) {
      var name = p.dataset.errorFor;
      var key = name === "__all__" ? "__all__" : name.slice(prefix.length);
      var text = errors && (errors[name] || errors[key]) || "";
      p.textContent = text;
      var input = name === "__all__" ? null : sheet.querySelector("[name='" + name + "']");
      if (input && input.type !== "radio") {
        if (text) { input.setAttribute("aria-invalid", "true"); }
        else { input.removeAttribute("aria-invalid"); }
      }
    });
  }

  function showScores(sheet, scores) {
    sheet.querySelectorAll("output.score").forEach(function (output) {
      var side = Number(output.dataset.side);
      output.textContent = scores && scores[side] !== undefined ? String(scores[side]) : "–";
    });
  }

  function liveCheck(sheet) {
    var url = sheet.dataset.checkUrl;
    if (!url) { return; }
    var touched = false;
    var serial = 0;
    function check() {
      var mine = ++serial;
      fetch(url, {method: "POST", body: sheetData(sheet), credentials: "same-origin",
                  headers: {"X-Requested-With": "fetch"}})
        .then(function (response) { return response.json(); })
        .then(function (body) {
          if (mine !== serial) { return; }
          showScores(sheet, body.valid ? body.scores : null);
          showErrors(sheet, body.valid ? {} : body.errors, touched);
        })
        .catch(function () { /* offline: the scores wait for the connection */ });
    }
    var soon = debounce(check, 250);
    sheet.addEventListener("input", function () { touched = true; soon(); });
    sheet.addEventListener("change", function () { touched = true; soon(); });
    sheet.checkAgain = check;
    // A page that comes back with a refusal shows its errors at once (they are server-rendered);
    // an untouched sheet only gets its scores.
    check();
  }

  /* --- the table page: save, and keep rounds until the server has them -------------------- */
  /*
   * A round leaves this phone only when the server has stored it (2xx) or refused it for good
   * (4xx other than 408 and 429). A refusal is shown next to the round with the typed figures
   * kept ("Open round N again"). No connection, 408, 429, 503 or any 5xx: the round stays and is
   * sent again later, with back-off (the server's Retry-After first). A 403 may be a stale CSRF
   * token (a page kept by the service worker): the token is fetched afresh and the round sent
   * once more before a 403 counts as a refusal.
   */

  var PAGE_CACHE = "hf-table-pages-v1";
  var MAX_WAIT_S = 120;
  var flushTimer = null;
  var flushing = false;
  var lastStored = null;

  function readQueue() {
    try {
      var queue = JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]");
      return Array.isArray(queue) ? queue : [];
    } catch (e) { return []; }
  }

  function writeQueue(queue) {
    localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  }

  function updateItem(key, changes) {
    writeQueue(readQueue().map(function (item) {
      return item.key === key ? Object.assign({}, item, changes) : item;
    }));
  }

  function dropItem(key) {
    writeQueue(readQueue().filter(function (item) { return item.key !== key; }));
  }

  function queued(form) {
    return readQueue().filter(function (item) { return item.action === form.action; });
  }

  function pairValue(pairs, name) {
    var pair = pairs.find(function (p) { return p[0] === name; });
    return pair ? pair[1] : "";
  }

  function newKey() {
    return (window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random())
      .replace(/[-.]/g, "");
  }

  function waitingText(item) {
    var seconds = Math.max(0, Math.ceil(((item.notBefore || 0) - Date.now()) / 1000));
    var why = item.reason === "busy"
      ? "the site is busy, so it is tried again" + (seconds ? " in " + seconds + " s" : " now")
      : "there is no connection, so it is sent as soon as the connection is back";
    return "Round " + item.round + " is waiting to send: " + why + ". It is kept on this phone.";
  }

  function showQueue(form) {
    var status = document.getElementById("queue-status");
    if (!status) { return; }
    var mine = queued(form);
    status.textContent = "";
    status.hidden = !mine.length;
    mine.forEach(function (item) {
      var line = document.createElement("p");
      line.className = "queue-item " + (item.state === "refused" ? "refused" : "waiting");
      line.dataset.round = item.round;
      if (item.state !== "refused") {
        line.textContent = waitingText(item);
        status.appendChild(line);
        return;
      }
      line.textContent = "Round " + item.round + " was not saved: " + item.message +
        " Your figures are kept on this phone. ";
      var again = document.createElement("button");
      again.type = "button";
      again.className = "button";
      again.textContent = "Open round " + item.round + " again";
      again.addEventListener("click", function () { reopen(form, item); });
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "button link";
      drop.textContent = "Discard these figures";
      drop.addEventListener("click", function () { dropItem(item.key); showQueue(form); });
      line.appendChild(again);
      line.appendChild(document.createTextNode(" "));
      line.appendChild(drop);
      status.appendChild(line);
    });
  }

  /* The kept figures back in the sheet, to correct and save again. */
  function reopen(form, item) {
    form.reset();
    form.querySelectorAll("input[type=checkbox]").forEach(function (box) { box.checked = false; });
    item.pairs.forEach(function (pair) {
      var name = pair[0];
      if (name === "csrfmiddlewaretoken" || name === "idempotency_key") { return; }
      form.querySelectorAll("[name='" + name + "']").forEach(function (input) {
        if (input.type === "checkbox") { input.checked = true; }
        else if (input.type === "radio") { input.checked = input.value === pair[1]; }
        else { input.value = pair[1]; }
      });
    });
    form.querySelector("input[name=idempotency_key]").value = newKey();
    if (form.checkAgain) { form.checkAgain(); }
    var round = form.querySelector("select[name=round]");
    if (round) { round.focus(); }
  }

  function formPairs(form, submitter) {
    var pairs = [];
    new FormData(form, submitter || undefined).forEach(function (value, name) {
      pairs.push([name, String(value)]);
    });
    return pairs;
  }

  function withToken(pairs, token) {
    return pairs.map(function (pair) {
      return pair[0] === "csrfmiddlewaretoken" ? [pair[0], token] : pair;
    });
  }

  function post(action, pairs) {
    var data = new FormData();
    pairs.forEach(function (pair) { data.append(pair[0], pair[1]); });
    return fetch(action, {method: "POST", body: data, credentials: "same-origin",
                          headers: {"X-Requested-With": "fetch"}});
  }

  /* A fresh CSRF token (and cookie) from the table page itself. */
  function freshToken(form) {
    var page = form.action.replace(/sheet\/$/, "");
    return fetch(page, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var input = doc.querySelector("input[name=csrfmiddlewaretoken]");
        if (!input) { throw new Error("no token"); }
        document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (mine) {
          mine.value = input.value;
        });
        return input.value;
      });
  }

  /* Send; on a 403 fetch a fresh token and send once more. Resolves to {response, pairs}. */
  function sendRound(form, pairs) {
    return post(form.action, pairs).then(function (response) {
      if (response.status !== 403) { return {response: response, pairs: pairs}; }
      return freshToken(form).then(function (token) {
        var fresh = withToken(pairs, token);
        return post(form.action, fresh).then(function (again) {
          return {response: again, pairs: fresh};
        });
      }, function () { return {response: response, pairs: pairs}; });
    });
  }

  function retryable(status) {
    return status === 408 || status === 429 || status >= 500;
  }

  function retryDelay(response, attempts) {
    var header = response ? Number(response.headers.get("Retry-After")) : NaN;
    var backoff = Math.min(MAX_WAIT_S, Math.pow(2, Math.min(attempts, 7)));
    var seconds = isFinite(header) && header > 0 ? Math.min(header, 3600) : backoff;
    return seconds * 1000 * (1 + Math.random() * 0.2);
  }

  /* The refusal in the words of the page the server answered with. */
  function refusalText(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var parts = [];
    doc.querySelectorAll("main .form-error, main .field-error, main p.error").forEach(function (el) {
      var text = el.textContent.trim();
      if (text && parts.indexOf(text) < 0) { parts.push(text); }
    });
    if (!parts.length) {
      var heading = doc.querySelector("main h1");
      parts.push(heading ? heading.textContent.trim() + "." : "The site refused it.");
    }
    return parts.join(" ");
  }

  function cachePage(url, html) {
    if (!window.caches) { return; }
    caches.open(PAGE_CACHE).then(function (cache) {
      return cache.put(url, new Response(html, {headers: {"Content-Type": "text/html; charset=utf-8"}}));
    }).catch(function () { /* no cache: the page still works online */ });
  }

  function schedule(form) {
    clearTimeout(flushTimer);
    var waiting = queued(form).filter(function (item) { return item.state !== "refused"; });
    if (!waiting.length) { return; }
    var next = Math.min.apply(null, waiting.map(function (item) { return item.notBefore || 0; }));
    flushTimer = setTimeout(function () { flush(form); }, Math.max(250, next - Date.now()));
  }

  function flushOne(form, item) {
    return sendRound(form, item.pairs).then(function (sent) {
      var response = sent.response;
      if (response.ok) {
        return response.text().then(function (html) {
          dropItem(item.key);
          lastStored = {url: response.url, html: html};
          return "stored";
        });
      }
      if (retryable(response.status)) {
        var attempts = (item.attempts || 0) + 1;
        updateItem(item.key, {attempts: attempts, reason: "busy", pairs: sent.pairs,
                              notBefore: Date.now() + retryDelay(response, attempts)});
        return "later";
      }
      return response.text().then(function (html) {
        updateItem(item.key, {state: "refused", message: refusalText(html), pairs: sent.pairs});
        return "refused";
      });
    }, function () {
      var attempts = (item.attempts || 0) + 1;
      updateItem(item.key, {attempts: attempts, reason: "offline",
                            notBefore: Date.now() + retryDelay(null, attempts)});
      return "later";
    });
  }

  function flush(form) {
    if (flushing || !navigator.onLine) { showQueue(form); return; }
    var due = queued(form).filter(function (item) {
      return item.state !== "refused" && (item.notBefore || 0) <= Date.now();
    });
    if (!due.length) { showQueue(form); schedule(form); return; }
    flushing = true;
    var stored = 0;
    var storedRounds = [];
    var chain = Promise.resolve("stored");
    due.forEach(function (item) {
      chain = chain.then(function (last) {
        // After a "try later" the rest wait too: no hammering a busy site.
        if (last === "later") { return "later"; }
        return flushOne(form, item).then(function (outcome) {
          if (outcome === "stored") { stored += 1; storedRounds.push(item.round); }
          return outcome;
        });
      });
    });
    chain.then(function () {
      flushing = false;
      var waiting = queued(form).filter(function (item) { return item.state !== "refused"; });
      if (stored && !waiting.length && !form.dataset.typing) {
        // The server's page after the last save: its "saved" message and the rounds so far.
        cachePage(lastStored.url, lastStored.html);
        writePage(lastStored.html);
        return;
      }
      showQueue(form);
      if (stored) { markSaved(form, storedRounds); }
      schedule(form);
    });
  }

  /* Rounds sent while the scorer types the next one: said, without replacing the sheet. */
  function markSaved(form, rounds) {
    var select = form.querySelector("select[name=round]");
    rounds.forEach(function (round) {
      var option = select && select.querySelector("option[value='" + round + "']");
      if (option && option.textContent.indexOf("(saved)") < 0) { option.textContent += " (saved)"; }
    });
    var status = document.getElementById("queue-status");
    var line = document.createElement("p");
    line.className = "queue-item sent";
    line.textContent = "Round " + rounds.join(", ") + (rounds.length > 1 ? " are" : " is") +
      " saved on the site.";
    status.appendChild(line);
    status.hidden = false;
  }

  function nextRound(form) {
    var select = form.querySelector("select[name=round]");
    if (!select) { return; }
    var waiting = queued(form).filter(function (item) { return item.state !== "refused"; })
      .map(function (item) { return item.round; });
    if (waiting.indexOf(select.value) < 0) { return; }
    var next = Array.prototype.find.call(select.options, function (option) {
      return option.textContent.indexOf("(saved)") < 0 && waiting.indexOf(option.value) < 0;
    });
    if (next) { select.value = next.value; }
  }

  function keep(form, pairs, reason, wait) {
    var key = pairValue(pairs, "idempotency_key");
    var round = pairValue(pairs, "round");
    // A round typed again replaces what was kept of it (and any refusal shown for it).
    var queue = readQueue().filter(function (item) {
      return item.key !== key && !(item.action === form.action && item.round === round);
    });
    queue.push({action: form.action, key: key, round: round, pairs: pairs, state: "waiting",
                reason: reason, attempts: 0, notBefore: Date.now() + (wait || 0)});
    writeQueue(queue);
    // The next round starts from a fresh sheet with a fresh key, on the next unsaved round.
    form.reset();
    delete form.dataset.typing;
    form.querySelector("input[name=idempotency_key]").value = newKey();
    nextRound(form);
    showQueue(form);
    schedule(form);
    if (form.checkAgain) { form.checkAgain(); }
  }

  function forgetRefused(form, round) {
    writeQueue(readQueue().filter(function (item) {
      return !(item.action === form.action && item.round === round && item.state === "refused");
    }));
  }

  function answered(form, response, pairs) {
    if (retryable(response.status)) {
      keep(form, pairs, "busy", retryDelay(response, 0));
      return;
    }
    return response.text().then(function (html) {
      forgetRefused(form, pairValue(pairs, "round"));
      if (response.ok) { cachePage(response.url, html); }
      // The page the server answered: after a save, the sheet of the next round with the
      // "saved" message; after a refusal, what was typed with the problem by its field.
      writePage(html);
    });
  }

  function writePage(html) {
    document.open();
    document.write(html);
    document.close();
  }

  function offlineSheet(form) {
    nextRound(form);
    showQueue(form);
    form.addEventListener("input", function () { form.dataset.typing = "1"; });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var pairs = formPairs(form, event.submitter);
      if (!navigator.onLine) { keep(form, pairs, "offline"); return; }
      var buttons = form.querySelectorAll("button[type=submit]");
      buttons.forEach(function (b) { b.disabled = true; });
      sendRound(form, pairs)
        .then(function (sent) {
          buttons.forEach(function (b) { b.disabled = false; });
          return answered(form, sent.response, sent.pairs);
        })
        .catch(function () {
          buttons.forEach(function (b) { b.disabled = false; });
          keep(form, pairs, "offline");
        });
    });
    window.addEventListener("online", function () {
      // Back online: everything waiting goes now, whatever its back-off said.
      queued(form).forEach(function (item) { updateItem(item.key, {notBefore: 0}); });
      flush(form);
    });
    window.addEventListener("offline", function () { showQueue(form); });
    flush(form);
  }

  /* The service worker keeps this page (and its CSS and script) for a reload without a
   * connection; the page registers it, and keeps its own copy the first time. */
  function serviceWorker(form) {
    var url = form.dataset.serviceWorker;
    if (!url || !("serviceWorker" in navigator)) { return; }
    navigator.serviceWorker.register(url, {scope: form.dataset.serviceWorkerScope})
      .then(function () {
        if (navigator.serviceWorker.controller || !window.caches || !navigator.onLine) { return; }
        return caches.open(PAGE_CACHE).then(function (cache) {
          return cache.add(new Request(location.pathname, {credentials: "same-origin"}));
        });
      })
      .catch(function () { /* without it the page still works while online */ });
  }

  // Choosing a round that is already saved opens it with its saved figures (as its "Open round N
  // again" link does), unless figures were typed here: those are never thrown away unasked.
  function savedRoundOpener(form) {
    var select = form.querySelector("select[name=round]");
    var saved = (form.dataset.savedRounds || "").split(" ").filter(Boolean);
    if (!select || !saved.length) { return; }
    var typed = false;
    form.addEventListener("input", function (event) {
      if (event.target !== select) { typed = true; }
    });
    select.addEventListener("change", function () {
      if (saved.indexOf(select.value) < 0) { return; }
      // Its own element: the live check rewrites #sheet-message with every answer.
      var note = document.getElementById("round-note");
      if (typed) {
        if (note) {
          note.textContent = "Round " + select.value + " is saved already. Save or clear the " +
            "figures typed here first, then open round " + select.value + " again to change it.";
        }
        return;
      }
      window.location.search = "?round=" + encodeURIComponent(select.value);
    });
  }

  function start() {
    document.querySelectorAll(".sheet[data-check-url]").forEach(liveCheck);
    var form = document.getElementById("sheet-form");
    if (form) { savedRoundOpener(form); }
    if (form && form.dataset.offline) {
      offlineSheet(form);
      serviceWorker(form);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
