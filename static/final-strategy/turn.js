// Final Strategy: build a turn on the board. Each click adds a step; the server (the engine)
// checks the turn so far and answers with the new board; when the turn has ended it is sealed
// (ended by a tap on a touch screen: once the player confirms it with "Seal this turn").
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
      // The sentence only: its field path ("steps.0") is for programs, not for players.
      line.textContent = p.message;
      box.appendChild(line);
    });
    box.hidden = !(problems && problems.length);
    // Beside the board, where the click was: brought into sight if it is not.
    if (!box.hidden && box.scrollIntoView) { box.scrollIntoView({block: "nearest"}); }
  }
  function post(url, body) {
    var data = new URLSearchParams();
    Object.keys(body).forEach(function (k) { data.append(k, body[k]); });
    return fetch(url, {method: "POST", body: data, credentials: "same-origin",
                       headers: {"X-CSRFToken": csrf}}).then(function (r) {
      return r.json().then(function (json) { return {status: r.status, json: json}; });
    });
  }
  // One tab stop on the board (roving tabindex): a square or an edge. ``focused`` is the
  // selector of the one that had the keyboard focus, given back after a redraw.
  function focusOn(selector) {
    var board = el("fs-board-wrap");
    var target = board.querySelector(selector);
    if (!target) { return; }
    board.querySelectorAll('[tabindex="0"]').forEach(function (node) {
      node.setAttribute("tabindex", "-1");
    });
    target.setAttribute("tabindex", "0");
    target.focus();
  }
  function squareSelector(name) { return '[data-square="' + name + '"]'; }
  function edgeSelector(name) { return '[data-edge="' + name + '"]'; }
  var focused = null;
  function render(answer) {
    el("fs-board-wrap").innerHTML = answer.board;
    if (focused) { focusOn(focused); }
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
      var ended = r.json.ended && steps.length;
      el("fs-confirm-box").hidden = !(ended && touched);
      if (ended && touched) { el("fs-confirm").focus(); }  // a tap: sealed on the second
      else if (ended) { seal(); }
    }).catch(function () { busy = false; showProblems([{path: "", message: play.dataset.networkError}]); });
  }
  function seal() {
    if (play.dataset.sandbox && window.portalSheet) {  // no match: the page plays the turn
      window.portalSheet.send(play, {steps: steps});
      return;
    }
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
  // The side picker: a barrier on one side of a square (the sides on the board's border or
  // already walled are not offered).
  var SIDES = {n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0]};
  function sideEdge(square, side) {
    var at = coords(square), nc = at[0] + SIDES[side][0], nr = at[1] + SIDES[side][1];
    return onBoard(nc, nr) ? edgeName(at[0], at[1], nc, nr) : null;
  }
  function askSide(square) {
    pendingSquare = square;
    el("fs-side-square").textContent = square;
    var picker = el("fs-side-picker"), first = null;
    picker.querySelectorAll("button[data-side]").forEach(function (button) {
      var side = button.dataset.side;
      if (!side) { return; }
      var name = sideEdge(square, side);
      var edge = name && el("fs-board-wrap").querySelector(edgeSelector(name));
      button.hidden = !edge || edge.classList.contains("fs-wall");
      if (!button.hidden && !first) { first = button; }
    });
    picker.hidden = false;
    (first || picker.querySelector("button")).focus();
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
  el("fs-board-wrap").addEventListener("click", function (event) { activate(event.target); });
  // Keys: on a square the arrows move to the next square, Shift + an arrow to the edge on
  // that side; on an edge the arrows cross it to a square or move along to the next edge.
  // Enter or Space acts on the square or edge (a barrier on an edge).
  var ARROWS = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  var COLUMNS = "abcdefghij";
  function squareName(col, row) { return COLUMNS.charAt(col) + (row + 1); }
  function onBoard(col, row) { return col >= 0 && col <= 9 && row >= 0 && row <= 9; }
  function edgeName(col, row, nc, nr) {  // its south or west square first
    var here = squareName(col, row), there = squareName(nc, nr);
    return (nc < col || nr < row) ? there + "-" + here : here + "-" + there;
  }
  function coords(name) {
    return [COLUMNS.indexOf(name.charAt(0)), +name.slice(1) - 1];
  }
  function edgeKey(edge, dx, dy) {
    var ends = edge.dataset.edge.split("-").map(coords);
    var a = ends[0], b = ends[1];
    var across = a[0] === b[0] ? dy !== 0 : dx !== 0;  // the arrow crosses the edge
    if (across) {  // to the square on that side: b is north or east of a
      var to = (dx > 0 || dy > 0) ? b : a;
      focused = squareSelector(squareName(to[0], to[1]));
    } else {  // along it, to the next edge
      if (!onBoard(a[0] + dx, a[1] + dy) || !onBoard(b[0] + dx, b[1] + dy)) { return; }
      focused = edgeSelector(edgeName(a[0] + dx, a[1] + dy, b[0] + dx, b[1] + dy));
    }
    focusOn(focused);
  }
  el("fs-board-wrap").addEventListener("keydown", function (event) {
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
    if (target.dataset.edge) { edgeKey(target, dx, dy); return; }
    var col = +target.dataset.col, row = +target.dataset.row;
    var nc = col + dx, nr = row + dy;
    if (!onBoard(nc, nr)) { return; }  // the border: stay put
    focused = event.shiftKey ? edgeSelector(edgeName(col, row, nc, nr))
      : squareSelector(squareName(nc, nr));
    focusOn(focused);
  });
  el("fs-corner-picker").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-corner]");
    if (!button) { return; }
    el("fs-corner-picker").hidden = true;
    var corner = button.dataset.corner;
    if (!corner || pendingSquare === null) {
      pendingSquare = null;
      if (focused) { focusOn(focused); }  // back to the square the picker was opened from
      return;
    }
    var step = tool() === "swap-kidnapper"
      ? {swap: pendingSquare, "for": "kidnapper", corner: corner}
      : {kidnapper: pendingSquare, corner: corner};
    pendingSquare = null;
    check(steps.concat([step]));
  });
  el("fs-side-picker").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-side]");
    if (!button) { return; }
    el("fs-side-picker").hidden = true;
    var name = button.dataset.side && pendingSquare !== null
      ? sideEdge(pendingSquare, button.dataset.side) : null;
    pendingSquare = null;
    if (!name) {
      if (focused) { focusOn(focused); }  // back to the square the picker was opened from
      return;
    }
    check(steps.concat([{barrier: name}]));
  });
  el("fs-undo").addEventListener("click", function () { check(steps.slice(0, -1)); });
  el("fs-confirm").addEventListener("click", function () {
    el("fs-confirm-box").hidden = true;
    seal();
  });
  // Was the last press a finger's (or a pen's)? A turn a tap ends is then confirmed first.
  var touched = false;
  document.addEventListener("pointerdown", function (event) {
    touched = event.pointerType === "touch" || event.pointerType === "pen";
  }, true);
  document.addEventListener("keydown", function () { touched = false; }, true);
  el("fs-reset").addEventListener("click", function () { check([]); });
})();
