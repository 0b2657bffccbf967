// Final Strategy: a branch of the "Plan ahead" panel built on the board. The moves expected
// of the seats that play before the player, then the reply, are clicked (or keyed) as a turn
// is; each is checked for its shape by the server (never against the position: whether a
// planned move is legal is only decided when it is played) and told in words. The branch is
// then posted to the plan under the line chosen. Without this script the box below is used.
(function () {
  "use strict";
  var root = document.getElementById("fs-plan-builder");
  if (!root || root.dataset.ready) { return; }
  root.dataset.ready = "1";
  root.hidden = false;
  var seat = +root.dataset.seat;
  var when = [];        // the moves kept for the other seats: [{seat, move}]
  var play = null;      // the reply kept
  var steps = [];       // the move being built
  var pendingSquare = null;
  var focused = null;
  var csrf = (JSON.parse(document.body.getAttribute("hx-headers") || "{}") || {})["X-CSRFToken"] || "";
  function el(id) { return document.getElementById(id); }
  var wrap = el("fs-plan-board-wrap");
  function who() {
    var checked = root.querySelector("input[name=fs-plan-who]:checked");
    return checked ? +checked.value : seat;
  }
  function tool() {
    var checked = root.querySelector("input[name=fs-plan-tool]:checked");
    return checked ? checked.value : "occupy";
  }
  function showProblems(problems) {
    var box = el("fs-plan-problems");
    box.innerHTML = "";
    (problems || []).forEach(function (p) {
      var line = document.createElement("p");
      line.textContent = p.message;
      box.appendChild(line);
    });
    box.hidden = !(problems && problems.length);
  }
  // The squares and edges of the move being built, marked on the board.
  function mark() {
    wrap.querySelectorAll(".fs-plan-picked").forEach(function (node) {
      node.classList.remove("fs-plan-picked");
    });
    steps.forEach(function (step) {
      var node = step.barrier ? wrap.querySelector('[data-edge="' + step.barrier + '"]')
        : wrap.querySelector('[data-square="' + (step.occupy || step.bomb || step.kidnapper || step.swap) + '"]');
      if (node) { node.classList.add("fs-plan-picked"); }
    });
  }
  // Ask the server for the branch so far in words; ``candidate`` is the move being built.
  function check(candidate, keep, kept) {
    var mover = keep ? kept : who();
    var w = when.slice(), p = play;
    if (keep || candidate.length) {
      if (mover === seat) { p = {steps: candidate}; }
      else { w = w.concat([{seat: mover, move: {steps: candidate}}]); }
    }
    var data = new URLSearchParams();
    data.append("when", JSON.stringify(w));
    data.append("play", JSON.stringify(p));
    return fetch(root.dataset.checkUrl, {method: "POST", body: data, credentials: "same-origin",
                                         headers: {"X-CSRFToken": csrf}}).then(function (r) {
      return r.json();
    }).then(function (answer) {
      if (!answer.ok) { showProblems(answer.problems); return null; }
      showProblems([]);
      if (keep) { return answer; }  // the move kept: the next one is already under way
      steps = candidate;
      var text = mover === seat ? answer.play_text
        : (candidate.length ? answer.moves[answer.moves.length - 1] : "");
      el("fs-plan-move").textContent = (candidate.length && text) || "—";
      mark();
      return answer;
    }).catch(function () {
      showProblems([{path: "", message: root.dataset.networkError}]);
      return null;
    });
  }
  function told(answer) {
    var sentence = el("fs-plan-sentence");
    if (answer.sentence) { sentence.textContent = answer.sentence; }
    else if (answer.moves.length) {
      sentence.textContent = answer.moves.map(function (m, i) {
        return root.querySelector('input[name=fs-plan-who][value="' + answer.when[i].seat + '"]')
          .parentNode.textContent.trim() + ": " + m;
      }).join(" / ");
    }
    el("fs-plan-branch").value = play ? JSON.stringify({when: when, play: play}) : "";
    el("fs-plan-add").disabled = !play;
  }
  el("fs-plan-keep").addEventListener("click", function () {
    if (!steps.length) { return; }
    var mover = who(), kept = steps;
    steps = [];
    el("fs-plan-move").textContent = "—";
    mark();
    // Next: the following seat's move, or the reply once every seat before has one.
    var radios = Array.prototype.slice.call(root.querySelectorAll("input[name=fs-plan-who]"));
    var at = radios.findIndex(function (radio) { return radio.checked; });
    if (mover !== seat && at + 1 < radios.length) { radios[at + 1].checked = true; }
    check(kept, true, mover).then(function (answer) {
      if (!answer) { return; }
      if (mover === seat) { play = answer.play; }
      else { when = answer.when; }
      told(answer);
    });
  });
  el("fs-plan-undo").addEventListener("click", function () { check(steps.slice(0, -1)); });
  el("fs-plan-restart").addEventListener("click", function () {
    when = []; play = null; steps = [];
    el("fs-plan-move").textContent = "—";
    el("fs-plan-sentence").textContent = el("fs-plan-sentence").dataset.empty;
    el("fs-plan-branch").value = "";
    el("fs-plan-add").disabled = true;
    firstWho();
    showProblems([]);
    mark();
  });
  el("fs-plan-sentence").dataset.empty = el("fs-plan-sentence").textContent;
  // The first move to build: at the top of the plan, the seat to move now's; under a line,
  // the first seat after the player's (the radios are in the order the seats play).
  function firstWho() {
    var radios = root.querySelectorAll("input[name=fs-plan-who]");
    var now = el("fs-plan-under").value === "" && root.dataset.toMove !== String(seat)
      && root.querySelector('input[name=fs-plan-who][value="' + root.dataset.toMove + '"]');
    (now || radios[0]).checked = true;
  }
  el("fs-plan-under").addEventListener("change", function () {
    el("fs-plan-under-field").value = el("fs-plan-under").value;
    if (!when.length && !play && !steps.length) { firstWho(); }
  });
  el("fs-plan-under-field").value = el("fs-plan-under").value;
  firstWho();

  // The board: the same gestures as the turn builder (static/final-strategy/turn.js).
  var COLUMNS = "abcdefghij";
  var SIDES = {n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0]};
  var ARROWS = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  function squareName(col, row) { return COLUMNS.charAt(col) + (row + 1); }
  function onBoard(col, row) { return col >= 0 && col <= 9 && row >= 0 && row <= 9; }
  function coords(name) { return [COLUMNS.indexOf(name.charAt(0)), +name.slice(1) - 1]; }
  function edgeName(col, row, nc, nr) {
    var here = squareName(col, row), there = squareName(nc, nr);
    return (nc < col || nr < row) ? there + "-" + here : here + "-" + there;
  }
  function squareSelector(name) { return '[data-square="' + name + '"]'; }
  function edgeSelector(name) { return '[data-edge="' + name + '"]'; }
  function focusOn(selector) {
    var target = wrap.querySelector(selector);
    if (!target) { return; }
    wrap.querySelectorAll('[tabindex="0"]').forEach(function (node) {
      node.setAttribute("tabindex", "-1");
    });
    target.setAttribute("tabindex", "0");
    target.focus();
  }
  function sideEdge(square, side) {
    var at = coords(square), nc = at[0] + SIDES[side][0], nr = at[1] + SIDES[side][1];
    return onBoard(nc, nr) ? edgeName(at[0], at[1], nc, nr) : null;
  }
  function askSide(square) {
    pendingSquare = square;
    el("fs-plan-side-square").textContent = square;
    var picker = el("fs-plan-side-picker"), first = null;
    picker.querySelectorAll("button[data-side]").forEach(function (button) {
      var side = button.dataset.side;
      if (!side) { return; }
      var name = sideEdge(square, side);
      var edge = name && wrap.querySelector(edgeSelector(name));
      button.hidden = !edge || edge.classList.contains("fs-wall");
      if (!button.hidden && !first) { first = button; }
    });
    picker.hidden = false;
    (first || picker.querySelector("button")).focus();
  }
  function askCorner(square) {
    pendingSquare = square;
    el("fs-plan-corner-picker").hidden = false;
    el("fs-plan-corner-picker").querySelector("button").focus();
  }
  function onSquare(square) {
    var t = tool();
    if (t === "occupy") { check(steps.concat([{occupy: square}])); }
    else if (t === "barrier") { askSide(square); }
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
  wrap.addEventListener("click", function (event) { activate(event.target); });
  wrap.addEventListener("keydown", function (event) {
    var target = event.target.closest && event.target.closest("[data-square], [data-edge]");
    if (!target || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      focused = target.dataset.square ? squareSelector(target.dataset.square)
        : edgeSelector(target.dataset.edge);
      activate(target);
      return;
    }
    if (!(event.key in ARROWS)) { return; }
    event.preventDefault();
    var dx = ARROWS[event.key][0], dy = ARROWS[event.key][1];
    if (target.dataset.edge) {
      var ends = target.dataset.edge.split("-").map(coords), a = ends[0], b = ends[1];
      if (a[0] === b[0] ? dy !== 0 : dx !== 0) {  // across the edge, to the square beyond
        var to = (dx > 0 || dy > 0) ? b : a;
        focused = squareSelector(squareName(to[0], to[1]));
      } else {  // along it, to the next edge
        if (!onBoard(a[0] + dx, a[1] + dy) || !onBoard(b[0] + dx, b[1] + dy)) { return; }
        focused = edgeSelector(edgeName(a[0] + dx, a[1] + dy, b[0] + dx, b[1] + dy));
      }
      focusOn(focused);
      return;
    }
    var col = +target.dataset.col, row = +target.dataset.row, nc = col + dx, nr = row + dy;
    if (!onBoard(nc, nr)) { return; }
    focused = event.shiftKey ? edgeSelector(edgeName(col, row, nc, nr))
      : squareSelector(squareName(nc, nr));
    focusOn(focused);
  });
  el("fs-plan-side-picker").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-side]");
    if (!button) { return; }
    el("fs-plan-side-picker").hidden = true;
    var name = button.dataset.side && pendingSquare !== null
      ? sideEdge(pendingSquare, button.dataset.side) : null;
    pendingSquare = null;
    if (name) { check(steps.concat([{barrier: name}])); }
    if (focused) { focusOn(focused); }
  });
  el("fs-plan-corner-picker").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-corner]");
    if (!button) { return; }
    el("fs-plan-corner-picker").hidden = true;
    var corner = button.dataset.corner;
    if (corner && pendingSquare !== null) {
      check(steps.concat([tool() === "swap-kidnapper"
        ? {swap: pendingSquare, "for": "kidnapper", corner: corner}
        : {kidnapper: pendingSquare, corner: corner}]));
    }
    pendingSquare = null;
    if (focused) { focusOn(focused); }
  });
})();
