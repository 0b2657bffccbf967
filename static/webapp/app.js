// The installed app: registers the site's service worker (/sw.js: push and the pages kept for
// when the network is gone) once the page has loaded, so it never slows a page down.
(function () {
  "use strict";
  var link = document.querySelector("link[rel=manifest][data-worker]");
  if (!link || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(link.dataset.worker, {scope: link.dataset.scope})
      .catch(function () { /* no worker (a private window): the site works without it */ });
  });
})();
