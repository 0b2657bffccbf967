// Final Strategy: build a turn on the board. Each click adds a step; the server (the engine)
// checks the turn so far and answers with the new board; when the turn has ended it is sealed.
(function () {
  "use strict";
  var play = document.getElementById("fs-play");
  if (!play || !play.dataset.checkUrl) { return; }
  var steps = [];
  var pendingSquare = null;
  var busy = false;
  var csrf = (JSON.parse(document.body.getAttribute("hx-headers") || "{}") || {})["X-CSRFToken"] || "";

  function el(id) { return document.getElementById(id); }
  function tool() {
    var checked = play.querySelector("input[name=fs-tool]:checked");
    return checked ? checked.value : "occupy";
  }
  function showProblems(problems) {
    var box = el("fs-problems");
    box.innerHTML = "";
    (problems || []).forEach(function (p) {
      var line = document.createElement("p");
      line.textContent = (p.path ? p.path + ": " : "") + p.message;
      box.appendChild(line);
    });
    box.hidden = !(problems && problems.length);
  }
  function post(url, body) {
    var data = new URLSearchParams();
    Object.keys(body).forEach(function (k) { data.append(k, body[k]); });
    return fetch(url, {method: "POST", body: data, credentials: "same-origin",
                       headers: {"X-CSRFToken": csrf}}).then(function (r) {
      return r.json().then(function (json) { return {status: r.status, json: json}; });
    });
  }
  function focusSquare(name) {
    var board = el("fs-board-wrap");
    var target = board.querySelector('[data-square="' + name + '"]');
    if (!target) { return; }
    board.querySelectorAll('[data-square][tabindex="0"]').forEach(function (node) {
      node.setAttribute("tabindex", "-1");
    });
    target.setAttribute("tabindex", "0");
    target.focus();
  }
  var focused = null;  // the square that had the keyboard focus, given back after a redraw
  function render(answer) {
    el("fs-board-wrap").innerHTML = answer.board;
    if (focused) { focusSquare(focused); }
    el("fs-turn-text").textContent = answer.text || "—";
    var story = el("fs-story");
    story.innerHTML = "";
    (answer.story || []).forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      story.appendChild(li);
    });
  }
  function check(candidate) {
    if (busy) { return; }
    busy = true;
    post(play.dataset.checkUrl, {steps: JSON.stringify(candidate)}).then(function (r) {
      busy = false;
      if (!r.json.ok) { showProblems(r.json.problems); return; }
      showProblems([]);
      steps = r.json.steps;
      render(r.json);
      if (r.json.ended && steps.length) { seal(); }
    }).catch(function () { busy = false; showProblems([{path: "", message: "Network error."}]); });
  }
  function seal() {
    busy = true;
    post(play.dataset.submitUrl, {steps: JSON.stringify(steps),
                                  phase_number: play.dataset.phaseNumber}).then(function (r) {
      busy = false;
      if (r.json.ok) { window.location.reload(); return; }
      showProblems(r.json.problems);
    });
  }
  function askCorner(square) {
    pendingSquare = square;
    el("fs-corner-picker").hidden = false;
    var first = el("fs-corner-picker").querySelector("button");
    if (first) { first.focus(); }
  }
  function onSquare(square) {
    var t = tool();
    if (t === "occupy") { check(steps.concat([{occupy: square}])); }
    else if (t === "bomb") { check(steps.concat([{bomb: square}])); }
    else if (t === "swap-bomb") { check(steps.concat([{swap: square, "for": "bomb"}])); }
    else { askCorner(square); }
  }
  function activate(target) {
    var edge = target.closest("[data-edge]");
    if (edge && !edge.classList.contains("fs-wall")) {
      check(steps.concat([{barrier: edge.dataset.edge}]));
      return;
    }
    var square = target.closest("[data-square]");
    if (square) { onSquare(square.dataset.square); }
  }
  el("fs-board-wrap").addEventListener("click", function (event) { activate(event.target); });
  var ARROWS = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  var COLUMNS = "abcdefghij";
  function squareName(col, row) { return COLUMNS.charAt(col) + (row + 1); }
  el("fs-board-wrap").addEventListener("keydown", function (event) {
    var square = event.target.closest && event.target.closest("[data-square]");
    if (!square || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var col = +square.dataset.col, row = +square.dataset.row;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      focused = square.dataset.square;
      activate(square);
      return;
    }
    if (!(event.key in ARROWS)) { return; }
    event.preventDefault();
    var nc = col + ARROWS[event.key][0], nr = row + ARROWS[event.key][1];
    if (nc < 0 || nc > 9 || nr < 0 || nr > 9) { return; }  // the border: stay put
    var here = square.dataset.square, there = squareName(nc, nr);
    if (event.shiftKey) {  // a barrier on that side of the square
      focused = here;
      var edge = (nc < col || nr < row) ? there + "-" + here : here + "-" + there;
      check(steps.concat([{barrier: edge}]));
    } else {
      focusSquare(there);
    }
  });
  el("fs-corner-picker").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-corner]");
    if (!button) { return; }
    el("fs-corner-picker").hidden = true;
    var corner = button.dataset.corner;
    if (!corner || pendingSquare === null) { pendingSquare = null; return; }
    var step = tool() === "swap-kidnapper"
      ? {swap: pendingSquare, "for": "kidnapper", corner: corner}
      : {kidnapper: pendingSquare, corner: corner};
    pendingSquare = null;
    check(steps.concat([step]));
  });
  el("fs-undo").addEventListener("click", function () { check(steps.slice(0, -1)); });
  el("fs-reset").addEventListener("click", function () { check([]); });
})();
