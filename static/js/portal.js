// Small progressive enhancements; every form works without them.
(function () {
  "use strict";

  // <button data-fill="textarea id" data-from="element id">: copy the element's text into the
  // textarea (e.g. start an order sheet from the example).
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-fill]");
    if (!button) return;
    const target = document.getElementById(button.dataset.fill);
    const source = document.getElementById(button.dataset.from);
    if (target && source) { target.value = source.textContent; target.focus(); }
  });
})();

// Deadline countdowns: <span data-countdown-for="ISO time"> shows "(in 3 h 05 min)" and keeps
// it current; at zero it says the deadline has passed (the status poll reloads the page when
// the phase resolves). The words come from the span, in the reader's language: data-days,
// data-hours, data-minutes, data-seconds ("{days}", "{hours}", "{minutes}", "{seconds}" in
// them stand for the numbers) and data-passed; English where the page gives none.
(function () {
  "use strict";

  const ENGLISH = {days: "(in {days} d {hours} h)", hours: "(in {hours} h {minutes} min)",
                   minutes: "(in {minutes} min)", seconds: "(in {seconds} s)",
                   passed: "(the deadline has passed; the round resolves any moment)"};

  function say(node, key, numbers) {
    let words = node.dataset[key] || ENGLISH[key];
    for (const [name, value] of Object.entries(numbers)) words = words.replace(`{${name}}`, value);
    return words;
  }

  function text(node, ms) {
    if (ms <= 0) return say(node, "passed", {});
    const minutes = Math.floor(ms / 60000);
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const mins = minutes % 60;
    if (days) return say(node, "days", {days, hours});
    if (hours) return say(node, "hours", {hours, minutes: String(mins).padStart(2, "0")});
    if (minutes) return say(node, "minutes", {minutes: mins});
    return say(node, "seconds", {seconds: Math.ceil(ms / 1000)});
  }

  function tick() {
    document.querySelectorAll("[data-countdown-for]").forEach((node) => {
      const when = Date.parse(node.dataset.countdownFor);
      if (!Number.isNaN(when)) node.textContent = text(node, when - Date.now());
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    setInterval(tick, 1000);
  });
})();

// A polled region marked data-poll-paused-while-focused skips its poll while the player is in
// it and a swap would take something from them: their input in one of its fields, or the
// focus on an element htmx cannot find again after the swap (one without an id; htmx puts the
// focus back on an element with an id, such as a channel's link). This replaces an hx-trigger
// filter expression, which htmx would have to eval: the Content-Security-Policy forbids eval.
document.addEventListener("htmx:beforeRequest", function (event) {
  const elt = event.detail && event.detail.elt;
  if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-poll-paused-while-focused")) return;
  const focused = elt.querySelector(":focus");
  if (focused && (!focused.id || focused.matches("input, select, textarea"))) {
    event.preventDefault();
  }
});

// A region marked data-keep-focus that the player's own action replaced (a panel whose form
// answers with the whole panel) keeps the keyboard in it. htmx puts the focus back on an
// element with an id and on the new content's [autofocus] element; when neither applies (the
// button pressed is gone with the old panel), the focus would fall to the top of the page and
// a keyboard user would have to find their way back. It goes to what the answer says instead:
// its error, else its notice, else the region's heading, each of which a screen reader reads.
(function () {
  "use strict";

  let held = null;

  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail && event.detail.target;
    const active = document.activeElement;
    held = target && target.id && target.hasAttribute("data-keep-focus") && active
      && active !== document.body && target.contains(active) ? target.id : null;
  });

  document.addEventListener("htmx:afterSettle", () => {
    if (!held) return;
    const region = document.getElementById(held);
    held = null;
    const active = document.activeElement;
    if (!region || (active && active !== document.body && active.isConnected)) return;
    const to = ["[role=alert]", ".message.success", "h1, h2, h3"]
      .map((selector) => region.querySelector(selector)).find(Boolean) || region;
    if (!to.hasAttribute("tabindex")) to.setAttribute("tabindex", "-1");
    to.focus();
  });
})();

// A field that only counts for some choices of a select: data-shown-with="the select's id"
// and data-shown-values="value value ..." hide it (and its label, when it is inside one)
// while the select holds another value. Without the script the field is simply always there.
(function () {
  "use strict";

  function sync() {
    document.querySelectorAll("[data-shown-with]").forEach((node) => {
      const select = document.getElementById(node.dataset.shownWith);
      if (!select) return;
      const shown = (node.dataset.shownValues || "").split(" ").includes(select.value);
      const box = node.closest("label") || node;
      box.hidden = !shown;
    });
  }

  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("change", (event) => {
    if (event.target.matches && event.target.matches("select")) sync();
  });
})();

// A stray tap never seals orders: a submit button marked data-confirm-touch="words" (the seal
// buttons of order sheets) asks, when tapped on a touch screen, to be tapped again: the first
// tap only arms it (its label says the words, the orders stay in view above it), the second,
// within CONFIRM_MS, seals. A mouse click or the keyboard seals at once, as before.
(function () {
  "use strict";
  const CONFIRM_MS = 8000;
  let touched = false;  // was the pointer that is pressing now a finger (or a pen)?

  document.addEventListener("pointerdown", (event) => {
    touched = event.pointerType === "touch" || event.pointerType === "pen";
  }, true);
  document.addEventListener("keydown", () => { touched = false; }, true);

  function disarm(button) {
    if (!button.dataset.armed) return;
    delete button.dataset.armed;
    button.textContent = button.dataset.confirmLabel;
    button.classList.remove("armed");
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[data-confirm-touch]");
    if (!button || !touched || button.dataset.armed) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    button.dataset.armed = "1";
    button.dataset.confirmLabel = button.textContent;
    button.textContent = button.dataset.confirmTouch;
    button.classList.add("armed");
    setTimeout(() => disarm(button), CONFIRM_MS);
  }, true);
})();
