/* Table-side score sheets (the table page and the director's correction form).
 *
 * - Steppers (+/-) for the small counts.
 * - Each side's score as it is typed, from the server's check (the one translation of engine
 *   errors into table words); a problem shows next to its field, and only once the sheet has
 *   been touched (nothing red on an untouched form).
 * - The table page's sheet survives a dropped connection: a round saved while offline (or
 *   whose request fails) is kept in localStorage, shown as "waiting to send", and sent when the
 *   connection returns. Its idempotency key makes a resend safe.
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

  /* --- the table page: save, and keep rounds through a dropped connection ---------------- */

  function readQueue() {
    try { return JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]"); } catch (e) { return []; }
  }

  function writeQueue(queue) {
    localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  }

  function showQueue(form) {
    var status = document.getElementById("queue-status");
    if (!status) { return; }
    var mine = readQueue().filter(function (item) { return item.action === form.action; });
    if (!mine.length) { status.hidden = true; status.textContent = ""; return; }
    var rounds = mine.map(function (item) { return item.round; }).join(", ");
    status.hidden = false;
    status.textContent = "Round " + rounds + (mine.length > 1 ? " are" : " is") +
      " waiting to send: there is no connection. It is kept on this phone and sent as soon as the " +
      "connection is back.";
  }

  function formPairs(form, submitter) {
    var pairs = [];
    new FormData(form, submitter || undefined).forEach(function (value, name) {
      pairs.push([name, String(value)]);
    });
    return pairs;
  }

  function send(item) {
    var data = new FormData();
    item.pairs.forEach(function (pair) { data.append(pair[0], pair[1]); });
    return fetch(item.action, {method: "POST", body: data, credentials: "same-origin"});
  }

  function flush(form) {
    var queue = readQueue();
    var mine = queue.filter(function (item) { return item.action === form.action; });
    if (!mine.length || !navigator.onLine) { return; }
    var chain = Promise.resolve();
    mine.forEach(function (item) {
      chain = chain.then(function () {
        return send(item).then(function () {
          // Sent (saved, or refused and shown on the page): either way it left the phone.
          writeQueue(readQueue().filter(function (other) { return other.key !== item.key; }));
        });
      });
    });
    chain.then(function () { window.location.reload(); }, function () { showQueue(form); });
  }

  function keep(form, pairs) {
    var get = function (name) {
      var pair = pairs.find(function (p) { return p[0] === name; });
      return pair ? pair[1] : "";
    };
    var queue = readQueue().filter(function (item) { return item.key !== get("idempotency_key"); });
    queue.push({action: form.action, key: get("idempotency_key"), round: get("round"), pairs: pairs});
    writeQueue(queue);
    showQueue(form);
    // The next round starts from a fresh sheet with a fresh key, on the next unsaved round.
    var select = form.querySelector("select[name=round]");
    var waiting = readQueue().map(function (item) { return item.round; });
    form.reset();
    form.querySelector("input[name=idempotency_key]").value =
      (window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random())
        .replace(/-/g, "");
    if (select) {
      var next = Array.prototype.find.call(select.options, function (option) {
        return option.textContent.indexOf("(saved)") < 0 && waiting.indexOf(option.value) < 0;
      });
      if (next) { select.value = next.value; }
    }
    if (form.checkAgain) { form.checkAgain(); }
  }

  function offlineSheet(form) {
    showQueue(form);
    form.addEventListener("submit", function (event) {
      var pairs = formPairs(form, event.submitter);
      if (!navigator.onLine) {
        event.preventDefault();
        keep(form, pairs);
        return;
      }
      event.preventDefault();
      var buttons = form.querySelectorAll("button[type=submit]");
      buttons.forEach(function (b) { b.disabled = true; });
      send({action: form.action, pairs: pairs})
        .then(function (response) {
          return response.text().then(function (html) {
            // The page the server answered: after a save, the sheet of the next round with the
            // "saved" message; after a refusal, what was typed with the problem by its field.
            document.open();
            document.write(html);
            document.close();
          });
        })
        .catch(function () {
          buttons.forEach(function (b) { b.disabled = false; });
          keep(form, pairs);
        });
    });
    window.addEventListener("online", function () { flush(form); });
    flush(form);
  }

  function start() {
    document.querySelectorAll(".sheet[data-check-url]").forEach(liveCheck);
    var form = document.getElementById("sheet-form");
    if (form && form.dataset.offline) { offlineSheet(form); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
