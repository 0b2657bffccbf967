// Kept for the devices that turned push on before the site's one service worker moved to
// /sw.js (portal/webapp, docs/sharing.md): their registration (scope /static/push/) still
// loads this file, and so runs the site's worker, pushes and one-click unsubscribe included.
importScripts("/sw.js");
