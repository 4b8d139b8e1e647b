// Draws the dashboard's plotly charts: each <script type="application/json" class="plotly-figure">
// holds one figure (data, layout, config), drawn into the element just before it. No inline
// script: the site's Content-Security-Policy allows none.
//
// Names in a chart are plain text: the server writes them so that plotly.js shows them as typed
// (analytics/charts.py, plain_text). As a second guard, no chart of this site has a link, so a
// link plotly.js would still draw in a chart's SVG (labels, ticks, hover text; the mode bar's
// buttons are outside it), now or on a later redraw or hover, is replaced at once by its text.
(function () {
  "use strict";
  function unlink(chart) {
    chart.querySelectorAll("svg a").forEach(function (link) {
      link.replaceWith(document.createTextNode(link.textContent));
    });
  }
  document.querySelectorAll("script.plotly-figure").forEach(function (source) {
    var figure = JSON.parse(source.textContent);
    var target = source.previousElementSibling;
    new MutationObserver(function () { unlink(target); })
      .observe(target, {childList: true, subtree: true});
    window.Plotly.newPlot(target, figure.data, figure.layout, figure.config);
  });
})();
