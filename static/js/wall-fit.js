// The wall on a projector (site_pages/wall.html): nobody can scroll it, so on a wide screen the
// standings' type shrinks, a step at a time down to half, until the last row is on the screen and
// no column of them is cut at its side.
// Again after each refresh of the wall (live-refresh.js replaces its content) and on a resize.
(function () {
  "use strict";
  var WIDE = 960; // px: narrower screens (phones) scroll the page as usual
  function fits(box) {
    var cut = Array.prototype.some.call(box.querySelectorAll(".table-wrap"), function (wrap) {
      return wrap.scrollWidth > wrap.clientWidth + 1;
    });
    return !cut && box.getBoundingClientRect().bottom <= window.innerHeight;
  }
  function fit() {
    var box = document.querySelector(".wall-standings");
    if (!box) return;
    box.style.fontSize = "";
    if (window.innerWidth < WIDE) return;
    for (var scale = 0.95; scale >= 0.5 && !fits(box); scale -= 0.05) {
      box.style.fontSize = scale.toFixed(2) + "em";
    }
  }
  var wall = document.getElementById("wall");
  if (wall && window.MutationObserver) new MutationObserver(fit).observe(wall, { childList: true });
  window.addEventListener("resize", fit);
  fit();
})();
