// Buttons marked data-print print the page (no inline handlers: the site's CSP allows none).
document.querySelectorAll("[data-print]").forEach(function (button) {
  "use strict";
  button.addEventListener("click", function () { window.print(); });
});
