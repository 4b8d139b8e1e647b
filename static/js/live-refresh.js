/* Live fragments: every element with data-refresh-url is filled from that URL on load and, when
   data-refresh-seconds > 0, refreshed on that period while the page is visible. The server
   renders the fragment; this only swaps it in, and only when it changed, so screen readers
   (aria-live="polite" on the container) hear about real changes only. */
(function () {
  "use strict";

  function setup(container) {
    var url = container.getAttribute("data-refresh-url");
    var seconds = parseInt(container.getAttribute("data-refresh-seconds") || "0", 10);
    var last = null;
    var timer = null;
    var inFlight = false;

    function showProblem(text) {
      var note = container.parentNode.querySelector(".refresh-problem");
      if (!note) {
        note = document.createElement("p");
        note.className = "refresh-problem muted";
        container.parentNode.insertBefore(note, container.nextSibling);
      }
      note.textContent = text;
      note.hidden = !text;
    }

    function load() {
      if (inFlight) return;
      inFlight = true;
      container.setAttribute("aria-busy", "true");
      fetch(url, {
        headers: { "X-Requested-With": "fetch" },
        credentials: "same-origin",
        cache: "no-store"
      })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (html) {
          if (html !== last) {
            last = html;
            container.innerHTML = html;
            container.setAttribute("data-updated", new Date().toISOString());
          }
          showProblem("");
        })
        .catch(function () {
          showProblem(seconds > 0 ? "Could not refresh the standings; trying again shortly."
                                  : "Could not load the standings. Reload the page to try again.");
        })
        .then(function () {
          inFlight = false;
          container.setAttribute("aria-busy", "false");
          schedule();
        });
    }

    function schedule() {
      if (timer) clearTimeout(timer);
      if (seconds > 0 && !document.hidden) timer = setTimeout(load, seconds * 1000);
    }

    document.addEventListener("visibilitychange", function () {
      if (seconds > 0 && !document.hidden) load();
    });
    load();
  }

  function start() {
    var containers = document.querySelectorAll("[data-refresh-url]");
    for (var i = 0; i < containers.length; i++) setup(containers[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
