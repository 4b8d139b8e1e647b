// "Copy the address" buttons (data-copy="<address>"): shown only where the browser can copy,
// the button says "Copied" once the address is on the clipboard. A static file: the site's
// Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  if (!navigator.clipboard || !window.isSecureContext) {
    return; // the address stays on the page as a link to copy by hand
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var words = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(button.dataset.copy).then(
        function () {
          button.textContent = "Copied";
          window.setTimeout(function () { button.textContent = words; }, 4000);
        },
        function () {
          button.textContent = "Copy it from the address below";
        }
      );
    });
  });
})();
