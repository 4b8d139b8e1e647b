/* Live fragments: every element with data-refresh-url is refilled from that URL every
   data-refresh-seconds (asking with If-None-Match: unchanged, the answer is an empty 304) while the page is visible (at once when it becomes visible again). The
   server renders the fragment, also for the first paint; this only swaps it in, and only when it
   changed, so screen readers (aria-live="polite" on the container) hear about real changes only. */
(function () {
  "use strict";

  function setup(container) {
    var url = container.getAttribute("data-refresh-url");
    var seconds = Math.max(parseInt(container.getAttribute("data-refresh-seconds"), 10) || 5, 1);
    var parser = document.createElement("template");
    var timer = null;
    var inFlight = false;
    var etag = null;  // the server answers 304 (no body) while the fragment is unchanged

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
      var headers = { "X-Requested-With": "fetch" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (response.status === 304) return null;
          if (!response.ok) throw new Error("HTTP " + response.status);
          etag = response.headers.get("ETag");
          return response.text();
        })
        .then(function (html) {
          if (html === null) { showProblem(""); return; }
          parser.innerHTML = html;
          if (parser.innerHTML.trim() !== container.innerHTML.trim()) {
            container.innerHTML = parser.innerHTML;
            container.setAttribute("data-updated", new Date().toISOString());
          }
          showProblem("");
        })
        .catch(function () {
          showProblem(container.getAttribute("data-refresh-problem")
                      || "Could not refresh the standings; trying again shortly.");
        })
        .then(function () {
          inFlight = false;
          container.setAttribute("aria-busy", "false");
          schedule();
        });
    }

    function schedule() {
      if (timer) clearTimeout(timer);
      if (!document.hidden) timer = setTimeout(load, seconds * 1000);
    }

    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) load();
    });
    schedule();
  }

  function start() {
    var containers = document.querySelectorAll("[data-refresh-url]");
    for (var i = 0; i < containers.length; i++) setup(containers[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
