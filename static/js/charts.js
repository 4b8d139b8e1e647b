// Draws the dashboard's plotly charts: each <script type="application/json" class="plotly-figure">
// holds one figure (data, layout, config), drawn into the element just before it. No inline
// script: the site's Content-Security-Policy allows none.
(function () {
  "use strict";
  document.querySelectorAll("script.plotly-figure").forEach(function (source) {
    var figure = JSON.parse(source.textContent);
    var target = source.previousElementSibling;
    window.Plotly.newPlot(target, figure.data, figure.layout, figure.config);
  });
})();
