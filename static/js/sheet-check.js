// The table's score sheet: each side's score as it is typed, checked by /api/sheets/check/.
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  if (!form) { return; }
  var rules = JSON.parse(document.getElementById("sheet-rules").textContent);
  var players = JSON.parse(document.getElementById("sheet-players").textContent);
  var message = document.getElementById("sheet-message");
  var numbers = ["clean_books", "dirty_books", "wild_books", "red_threes", "table_points", "held_points"];
  var timer = null;

  function sheet() {
    var sides = [];
    form.querySelectorAll("fieldset[data-side]").forEach(function (fieldset) {
      var side = {};
      numbers.forEach(function (name) {
        var input = fieldset.querySelector("input[name$='_" + name + "']");
        side[name] = input && input.value !== "" ? Number(input.value) : 0;
      });
      side.went_out = fieldset.querySelector("input[name$='_went_out']").checked;
      sides.push(side);
    });
    return {format: "hand-and-foot-sheet/1", rules: rules, players: players,
            round: Number(form.elements.round.value), ended_by: form.elements.ended_by.value, sides: sides};
  }

  function show(report) {
    var outputs = form.querySelectorAll(".side-score");
    var round = report.rounds && report.rounds[0];
    outputs.forEach(function (output, i) {
      output.textContent = report.valid && round ? round.sides[i].score : "–";
    });
    message.textContent = report.valid ? "" : (report.error ? report.error.message : "");
  }

  function check() {
    fetch("/api/sheets/check/", {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify(sheet())})
      .then(function (response) { return response.json(); })
      .then(function (body) { show(body.error && !body.kind ? {valid: false, error: body.error} : body); })
      .catch(function () { message.textContent = ""; });
  }

  form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(check, 250); });
  form.addEventListener("change", function () { clearTimeout(timer); timer = setTimeout(check, 100); });
  form.addEventListener("submit", function () { form.querySelector("button[type=submit]").disabled = true; });
  check();
})();
