// Follows a job's progress bar (templates/jobs/_progress.html) once a second and reloads the
// page when the job is done (or shows why it failed).
(function () {
  "use strict";
  var box = document.querySelector("[data-job-progress]");
  if (!box) return;
  var url = box.getAttribute("data-job-progress");
  var bar = box.querySelector("progress");
  var words = box.querySelector("[data-job-words]");
  function show(job) {
    if (job.status === "done") { window.location.reload(); return true; }
    if (job.status === "failed") {
      var p = document.createElement("p");
      p.className = "error"; p.setAttribute("role", "alert"); p.textContent = job.error;
      if (bar) bar.remove();
      if (words) words.replaceWith(p);
      return true;
    }
    if (bar) { bar.value = job.percent; bar.textContent = job.percent + "%"; }
    if (words && job.total) {
      words.textContent = job.done.toLocaleString() + " of " + job.total.toLocaleString() + " " + job.unit;
    }
    return false;
  }
  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (job) { if (!job || !show(job)) window.setTimeout(poll, 1000); })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 500);
})();
