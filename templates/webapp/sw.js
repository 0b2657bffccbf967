{% comment %}The site's one service worker, served at /sw.js (portal/webapp/views.py) so that it
controls every page: web push, and the pages kept for when the network is gone.{% endcomment %}// The site's service worker.
//
// Push: shows each push as a notification (one per topic: a newer one replaces an older one
// with the same tag), opens the match when it is clicked, and turns push off for this device
// with one click on "Stop these" (a POST to the push's signed unsubscribe link, then the
// browser's own unsubscribe).
//
// Offline: every page opened (a GET, answered 200 with HTML, outside the private paths) is kept
// as it was last seen, the last PAGES_KEPT of them. With the network gone, a page asked for is
// answered with its kept copy, else with the offline page, which lists the kept ones. Logging
// out forgets them all.
"use strict";

var PAGES = "portal-pages-v1";
var SHELL = "portal-offline-v1";
var PAGES_KEPT = 30;
var OFFLINE_URL = "{{ offline_url|escapejs }}";
var LOGOUT_URL = "{{ logout_url|escapejs }}";
var PRIVATE_PATHS = {{ private_paths|safe }};
// What the offline page needs besides itself (its style and script).
var SHELL_FILES = {{ shell_files|safe }};

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll([OFFLINE_URL].concat(SHELL_FILES).map(function (url) {
      return new Request(url, {credentials: "omit"});
    }));
  }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function keptPath(url) {
  if (url.origin !== self.location.origin || url.pathname === OFFLINE_URL) return false;
  return !PRIVATE_PATHS.some(function (prefix) { return url.pathname.indexOf(prefix) === 0; });
}

function keep(request, response) {
  var type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || type.indexOf("text/html") !== 0) return Promise.resolve();
  return caches.open(PAGES).then(function (cache) {
    return cache.put(request.url, response).then(function () { return cache.keys(); })
      .then(function (keys) {  // the oldest first: forget those past the last PAGES_KEPT
        return Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map(
          function (old) { return cache.delete(old); }));
      });
  });
}

function lastKnown(request) {
  return caches.open(PAGES).then(function (cache) { return cache.match(request.url); })
    .then(function (kept) {
      return kept || caches.open(SHELL).then(function (cache) { return cache.match(OFFLINE_URL); });
    })
    .then(function (answer) {
      return answer || new Response("Offline", {status: 503, headers: {"Content-Type": "text/plain"}});
    });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.mode !== "navigate") {  // only pages, and the offline page's files when offline
    if (request.method === "GET" && url.origin === self.location.origin
        && SHELL_FILES.indexOf(url.pathname) !== -1) {
      event.respondWith(fetch(request).catch(function () {
        return caches.open(SHELL).then(function (cache) { return cache.match(url.pathname); });
      }));
    }
    return;
  }
  if (request.method === "POST" && url.pathname === LOGOUT_URL) {
    event.waitUntil(caches.delete(PAGES));  // (the log-out itself goes to the network)
    return;
  }
  if (request.method !== "GET" || !keptPath(url)) return;
  event.respondWith(fetch(request).then(function (response) {
    event.waitUntil(keep(request, response.clone()));
    return response;
  }, function () { return lastKnown(request); }));
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {body: event.data.text()}; }
  var options = {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: !!data.tag,
    data: {url: data.url || "/", unsubscribe: data.unsubscribe || ""},
    actions: data.unsubscribe ? [{action: "unsubscribe", title: data.stop || "Stop these"}] : []
  };
  event.waitUntil(self.registration.showNotification(data.title || "Tank Portal", options));
});

function unsubscribe(url) {
  return fetch(url, {method: "POST", credentials: "omit"}).then(function () {
    return self.registration.pushManager.getSubscription();
  }).then(function (subscription) {
    return subscription ? subscription.unsubscribe() : false;
  });
}

function open(url) {
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  });
}

self.addEventListener("notificationclick", function (event) {
  var data = event.notification.data || {};
  event.notification.close();
  if (event.action === "unsubscribe" && data.unsubscribe) {
    event.waitUntil(unsubscribe(data.unsubscribe));
  } else {
    event.waitUntil(open(data.url || "/"));
  }
});

// Tests and the page may ask the worker to run the one-click unsubscribe of a shown
// notification (a notification's button cannot be pressed from a script).
self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "unsubscribe" && event.data.url) {
    event.waitUntil(unsubscribe(event.data.url).then(function () {
      event.source && event.source.postMessage({type: "unsubscribed"});
    }));
  }
});
