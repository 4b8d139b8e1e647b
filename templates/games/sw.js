{% load static %}/* The table page's service worker (scope /play/), served by games.views.service_worker.
 *
 * A table page (/play/<token>/) is fetched from the network when there is one and kept; without
 * a connection the kept copy is shown, so a reload never shows the browser's error page. Its
 * rounds waiting to send are in the page's localStorage (static/js/table-entry.js), listed and
 * sent on reconnect. The site's CSS and scripts are kept the same way. Nothing but GET is
 * touched: saving a round always goes to the server.
 */
"use strict";

var PAGES = "hf-table-pages-v1";
var ASSETS = "hf-table-assets-{{ version }}";
var SCOPE = "{{ scope|escapejs }}";
var STATIC = "{{ static_prefix|escapejs }}";
var PRECACHE = [
  "{% static 'css/site.css' %}",
  "{% static 'js/table-entry.js' %}",
  "{% static 'img/favicon.svg' %}"
];

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(caches.open(ASSETS).then(function (cache) { return cache.addAll(PRECACHE); })
    .catch(function () { /* kept later, as they are fetched */ }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("hf-table-assets-") === 0 && name !== ASSETS;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isTablePage(url) {
  var rest = url.pathname.slice(SCOPE.length);
  return url.pathname.indexOf(SCOPE) === 0 && /^[A-Za-z0-9_-]{8,64}\/$/.test(rest);
}

function networkFirst(request, url) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(url.pathname, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })
      .then(function (kept) {
        return kept || new Response(
          "<!doctype html><title>No connection</title><h1>No connection</h1>" +
          "<p>This table page was not opened on this phone before. Open it again when the " +
          "connection is back.</p>",
          {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
      });
  });
}

function cacheFirst(request) {
  return caches.open(ASSETS).then(function (cache) {
    return cache.match(request).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(cacheFirst(request));
  } else if (isTablePage(url) && !url.search) {
    event.respondWith(networkFirst(request, url));
  }
});
