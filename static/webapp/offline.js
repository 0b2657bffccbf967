// The offline page (templates/webapp/offline.html): lists the pages the service worker kept
// (templates/webapp/sw.js, cache "portal-pages-v1"), newest first, each with its title and when
// it was last seen; a click opens the kept copy (the worker answers with it while offline).
(function () {
  "use strict";
  var list = document.getElementById("kept-pages");
  if (!list || !("caches" in window)) return;

  function titleOf(html, url) {
    var title = new DOMParser().parseFromString(html, "text/html").title;
    return title || new URL(url).pathname;
  }

  caches.open("portal-pages-v1").then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (request) {
        return cache.match(request).then(function (response) {
          return response.text().then(function (html) {
            return {url: request.url, title: titleOf(html, request.url),
                    seen: new Date(response.headers.get("Date") || 0)};
          });
        });
      }));
    });
  }).then(function (pages) {
    pages.sort(function (a, b) { return b.seen - a.seen; });
    pages.forEach(function (page) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = page.url;
      link.textContent = page.title;
      item.appendChild(link);
      if (page.seen.getTime()) {
        var when = document.createElement("small");
        when.textContent = " (" + list.dataset.seen.replace(
          "%(when)s", page.seen.toLocaleString(document.documentElement.lang)) + ")";
        item.appendChild(when);
      }
      list.appendChild(item);
    });
    document.getElementById("kept-none").hidden = pages.length > 0;
  });
})();
