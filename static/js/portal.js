// Small progressive enhancements; every form works without them.
//
// Per-game option widgets (templates/games/<game>/options.html) edit the JSON options
// textarea, which stays the one source of truth and the whole form without JavaScript.
// A widget names its option with data-option="a.b" and its kind with data-kind:
//   bool (checkbox), int (number input), list (one checkbox per item, value = item),
//   nullable (select; the empty choice sets data-parent to null).
// A widget with data-parent is only written while that parent option is not null.
(function () {
  "use strict";

  function area(form) { return form.querySelector("textarea[name=options]"); }

  function readOptions(form) {
    try {
      const value = JSON.parse(area(form).value || "{}");
      return value && typeof value === "object" && !Array.isArray(value) ? value : null;
    } catch (error) {
      return null; // broken JSON: leave it for the server to explain
    }
  }

  function getPath(object, path) {
    return path.split(".").reduce((o, key) => (o == null ? undefined : o[key]), object);
  }

  function setPath(object, path, value) {
    const keys = path.split(".");
    let target = object;
    keys.slice(0, -1).forEach((key) => {
      if (target[key] == null || typeof target[key] !== "object") target[key] = {};
      target = target[key];
    });
    target[keys[keys.length - 1]] = value;
  }

  function widgetsToJson(form) {
    const options = readOptions(form);
    if (!options) return;
    const lists = {};
    form.querySelectorAll("[data-option]").forEach((el) => {
      const path = el.dataset.option;
      const kind = el.dataset.kind;
      if (kind === "list") {
        lists[path] = lists[path] || [];
        if (el.checked) lists[path].push(el.value);
        return;
      }
      if (kind === "nullable" && el.value === "") {
        setPath(options, el.dataset.parent, null);
        return;
      }
      if (el.dataset.parent && getPath(options, el.dataset.parent) === null
          && kind !== "nullable") return;
      if (kind === "bool") setPath(options, path, el.checked);
      else if (kind === "int") {
        const number = parseInt(el.value, 10);
        if (!Number.isNaN(number)) setPath(options, path, number);
      } else setPath(options, path, el.value);
    });
    Object.entries(lists).forEach(([path, items]) => setPath(options, path, items));
    area(form).value = JSON.stringify(options, null, 2);
  }

  function jsonToWidgets(form) {
    const options = readOptions(form);
    // While the JSON does not parse, the widgets cannot show it: grey them out.
    form.querySelectorAll(".options-widgets").forEach((set) => { set.disabled = !options; });
    if (!options) return;
    form.querySelectorAll("[data-option]").forEach((el) => {
      const value = getPath(options, el.dataset.option);
      const kind = el.dataset.kind;
      if (kind === "list") el.checked = Array.isArray(value) && value.includes(el.value);
      else if (kind === "bool") el.checked = value === true;
      else if (kind === "nullable") el.value = value == null ? "" : String(value);
      else if (value != null) el.value = String(value);
      if (el.dataset.parent && kind !== "nullable") {
        el.disabled = getPath(options, el.dataset.parent) == null;
      }
    });
  }

  function init(root) {
    const forms = root.matches && root.matches("form") ? [root] : root.querySelectorAll("form");
    forms.forEach((form) => {
      if (!form.querySelector("[data-option]") || form.dataset.optionsReady) return;
      form.dataset.optionsReady = "yes";
      jsonToWidgets(form);
      form.addEventListener("change", (event) => {
        if (event.target.matches("[data-option]")) { widgetsToJson(form); jsonToWidgets(form); }
      });
      area(form).addEventListener("input", () => jsonToWidgets(form));
    });
  }

  document.addEventListener("DOMContentLoaded", () => init(document));
  document.addEventListener("htmx:load", (event) => init(event.detail.elt));

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
// the phase resolves).
(function () {
  "use strict";

  function text(ms) {
    if (ms <= 0) return "(the deadline has passed; the round resolves any moment)";
    const minutes = Math.floor(ms / 60000);
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const mins = minutes % 60;
    if (days) return `(in ${days} d ${hours} h)`;
    if (hours) return `(in ${hours} h ${String(mins).padStart(2, "0")} min)`;
    if (minutes) return `(in ${mins} min)`;
    return `(in ${Math.ceil(ms / 1000)} s)`;
  }

  function tick() {
    document.querySelectorAll("[data-countdown-for]").forEach((node) => {
      const when = Date.parse(node.dataset.countdownFor);
      if (!Number.isNaN(when)) node.textContent = text(when - Date.now());
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    setInterval(tick, 1000);
  });
})();

// A polled region marked data-poll-paused-while-focused skips its poll while the player is in
// one of its fields (a swap would throw their input away). This replaces an hx-trigger filter
// expression, which htmx would have to eval: the Content-Security-Policy forbids eval.
document.addEventListener("htmx:beforeRequest", function (event) {
  const elt = event.detail && event.detail.elt;
  if (elt && elt.hasAttribute && elt.hasAttribute("data-poll-paused-while-focused")
      && elt.querySelector(":focus")) {
    event.preventDefault();
  }
});
