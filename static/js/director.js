/* Director pages: filter a list as you type (the registrations on a phone), mark house
   rules that differ from the preset while they are edited, and ask "are you sure?" before
   forms marked data-confirm. No inline scripts (CSP). */
(function () {
  "use strict";

  function applyFilter(input) {
    var rows = document.querySelectorAll(input.getAttribute("data-filter-rows"));
    var wanted = input.value.trim().toLocaleLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var name = (row.getAttribute("data-name") || row.textContent).toLocaleLowerCase();
      var match = !wanted || name.indexOf(wanted) !== -1;
      row.hidden = !match;
      if (match) shown += 1;
    });
    var empty = input.closest("section") && input.closest("section").querySelector(".filter-empty");
    if (empty) empty.hidden = shown !== 0;
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target.matches && target.matches("input[data-filter-rows]")) applyFilter(target);
    var row = target.closest && target.closest("[data-preset-value]");
    if (row) markChanged(row);
  });
  document.addEventListener("change", function (event) {
    var row = event.target.closest && event.target.closest("[data-preset-value]");
    if (row) markChanged(row);
  });

  function currentValue(row) {
    var parts = [];
    row.querySelectorAll("input, select").forEach(function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked) parts.push(el.value);
      } else {
        parts.push(el.value.replace(/\s+/g, ""));
      }
    });
    return parts.join("|");
  }

  function markChanged(row) {
    var changed = currentValue(row) !== row.getAttribute("data-preset-value");
    row.classList.toggle("changed", changed);
    var note = row.querySelector(".changed-note");
    if (note) note.hidden = !changed;
  }

  /* "Are you sure?" before a step that is hard to take back: a form with data-confirm asks
     its question first (finishing the event, closing a rotation, using a version,
     withdrawing). Without JavaScript the form simply submits. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.target.closest && event.target.closest("form[data-confirm]");
    if (!form) return;
    event.preventDefault();
    if (window.confirm(form.getAttribute("data-confirm"))) event.detail.issueRequest(true);
  });

  /* Keep the filter applied when htmx swaps the registrations list in. */
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("input[data-filter-rows]").forEach(applyFilter);
  });
})();
