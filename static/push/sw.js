// The service worker of web push: shows each push as a notification (one per topic: a newer one
// replaces an older one with the same tag), opens the match when it is clicked, and turns push
// off for this device with one click on "Stop these" (a POST to the push's signed unsubscribe
// link, then the browser's own unsubscribe).
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

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
