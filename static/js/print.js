/* A "Print" button (data-print) prints the page; a static file, so no inline script is needed. */
document.addEventListener("click", function (event) {
  "use strict";
  if (event.target.closest("[data-print]")) { window.print(); }
});
