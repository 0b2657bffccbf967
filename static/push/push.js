// The profile's "push on this device" button: registers the service worker (static/push/sw.js),
// asks for permission, subscribes with the site's VAPID public key and sends the subscription to
// the server (and the reverse to turn it off). No inline script: the page's data attributes
// carry the URLs and the key.
(function () {
  "use strict";
  var box = document.getElementById("push-this-device");
  if (!box) return;
  var status = document.getElementById("push-status");
  var enable = document.getElementById("push-enable");
  var disable = document.getElementById("push-disable");
  var label = document.getElementById("push-label");

  // The texts come translated from the page (templates/push/devices.html, data-say-*).
  var texts = box.dataset;
  function say(text) { status.textContent = text; }

  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function keyBytes(base64url) {
    var padded = base64url.replace(/-/g, "+").replace(/_/g, "/");
    padded += "===".slice((padded.length + 3) % 4);
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function guessLabel() {
    var ua = navigator.userAgent;
    var browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" :
      /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
    var system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" :
      /Windows/.test(ua) ? "Windows" : /Mac OS/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
    return system ? texts.sayDevice.replace("%(browser)s", browser).replace("%(system)s", system)
      : browser;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
        return data;
      });
    });
  }

  function registration() {
    return navigator.serviceWorker.register(box.dataset.workerUrl, {scope: box.dataset.workerScope})
      .then(function () { return navigator.serviceWorker.getRegistration(box.dataset.workerScope); })
      .then(function (reg) {
        if (reg.active) return reg;
        return new Promise(function (resolve) {
          var worker = reg.installing || reg.waiting;
          worker.addEventListener("statechange", function () {
            if (worker.state === "activated") resolve(reg);
          });
        });
      });
  }

  function known(endpoint) {
    return Array.prototype.some.call(document.querySelectorAll(".push-device"), function (item) {
      return item.dataset.endpoint === endpoint;
    });
  }

  function show(subscription) {
    var on = subscription && known(subscription.endpoint);
    enable.hidden = !!on;
    disable.hidden = !on;
    say(on ? texts.sayOn : texts.sayOff);
  }

  function turnOn() {
    enable.disabled = true;
    say(texts.sayTurningOn);
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error(texts.sayBlocked);
      return registration();
    }).then(function (reg) {
      return reg.pushManager.getSubscription().then(function (old) {
        return old || reg.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.publicKey)
        });
      });
    }).then(function (subscription) {
      return post(box.dataset.subscribeUrl, {
        subscription: subscription.toJSON(), label: label.value || guessLabel()
      });
    }).then(function () {
      say(texts.sayOn);
      window.location.reload();
    }).catch(function (error) {
      say(texts.sayNotOn.replace("%(error)s", error.message));
      enable.disabled = false;
    });
  }

  function turnOff() {
    disable.disabled = true;
    navigator.serviceWorker.getRegistration(box.dataset.workerScope).then(function (reg) {
      return reg ? reg.pushManager.getSubscription() : null;
    }).then(function (subscription) {
      if (!subscription) return null;
      return post(box.dataset.removeUrl, {endpoint: subscription.endpoint}).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () {
      window.location.reload();
    }).catch(function (error) {
      say(texts.sayNotOff.replace("%(error)s", error.message));
      disable.disabled = false;
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(texts.sayUnsupported);
    return;
  }
  label.value = guessLabel();
  enable.addEventListener("click", turnOn);
  disable.addEventListener("click", turnOff);
  navigator.serviceWorker.getRegistration(box.dataset.workerScope).then(function (reg) {
    return reg ? reg.pushManager.getSubscription() : null;
  }).then(show, function () { show(null); });
})();
