// Panzer Squadron: a branch of the "Plan ahead" panel built on a board of its own. The
// activation expected of the other seat, then the reply, are chosen as an activation is: the
// tank, its action, then hexes clicked (or keyed: static/panzer-squadron/board.js moves
// between hexes and turns Enter into a click) for the steps of its path or its target. Each
// activation is checked for its shape by the server (never against the position: whether a
// planned activation is legal is only decided when it is played) and told in words; the
// branch is then posted to the plan under the line chosen. Without this script the box below
// is used.
(function () {
  "use strict";
  var root = document.getElementById("ps-plan-builder");
  if (!root || root.dataset.ready) { return; }
  root.dataset.ready = "1";
  root.hidden = false;
  var seat = +root.dataset.seat;
  var when = [];        // the activations kept for the other seat: [{seat, move}]
  var play = null;      // the reply kept
  var path = [];        // the steps of the activation being built
  var target = null;    // its target
  var csrf = (JSON.parse(document.body.getAttribute("hx-headers") || "{}") || {})["X-CSRFToken"] || "";
  function el(id) { return document.getElementById(id); }
  var wrap = el("ps-plan-board-wrap");
  function picked(name, fallback) {
    var checked = root.querySelector("input[name=" + name + "]:checked");
    return checked ? checked.value : fallback;
  }
  function who() { return +picked("ps-plan-who", String(seat)); }
  function action() { return picked("ps-plan-action", "move"); }
  // The tanks of the seat whose activation is built, alone in the list.
  function tanks() {
    var select = el("ps-plan-tank"), mover = String(who()), first = null;
    Array.prototype.forEach.call(select.options, function (option) {
      option.hidden = option.disabled = option.dataset.seat !== mover;
      if (!option.hidden && !first) { first = option; }
    });
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled && first) {
      select.value = first.value;
    }
  }
  // The activation as the plan writes it (engine/panzer_squadron/plans.py).
  function activation(steps, aim) {
    var a = action(), move = {activate: el("ps-plan-tank").value, action: a};
    if (a === "move" || a === "move-fire") {
      move.path = steps;
      move.target = a === "move-fire" ? aim : null;
      move.end = picked("ps-plan-end", "stopped");
    } else if (a === "fire") {
      move.target = aim;
    }
    return move;
  }
  function showProblems(problems) {
    var box = el("ps-plan-problems");
    box.innerHTML = "";
    (problems || []).forEach(function (p) {
      var line = document.createElement("p");
      line.textContent = p.message;
      box.appendChild(line);
    });
    box.hidden = !(problems && problems.length);
  }
  function mark() {
    wrap.querySelectorAll(".ps-plan-picked, .ps-plan-aim").forEach(function (node) {
      node.classList.remove("ps-plan-picked", "ps-plan-aim");
    });
    path.forEach(function (step) {
      var node = wrap.querySelector('.ps-hex[data-hex="' + (step.move || step.reverse) + '"]');
      if (node) { node.classList.add("ps-plan-picked"); }
    });
    var aim = target && wrap.querySelector('.ps-hex[data-hex="' + target + '"]');
    if (aim) { aim.classList.add("ps-plan-aim"); }
  }
  function post(w, p) {
    var data = new URLSearchParams();
    data.append("when", JSON.stringify(w));
    data.append("play", JSON.stringify(p));
    return fetch(root.dataset.checkUrl, {method: "POST", body: data, credentials: "same-origin",
                                         headers: {"X-CSRFToken": csrf}}).then(function (r) {
      return r.json();
    }).then(function (answer) {
      if (!answer.ok) { showProblems(answer.problems); return null; }
      showProblems([]);
      return answer;
    }).catch(function () {
      showProblems([{path: "", message: root.dataset.networkError}]);
      return null;
    });
  }
  // The activation being built with ``steps`` and ``aim``, checked and told; kept if it is.
  function check(steps, aim) {
    var mover = who(), move = activation(steps, aim);
    var asked = mover === seat ? post(when, move)
      : post(when.concat([{seat: mover, move: move}]), play);
    return asked.then(function (answer) {
      if (!answer) { return null; }
      path = steps; target = aim;
      el("ps-plan-move").textContent = mover === seat ? answer.play_text
        : answer.moves[answer.moves.length - 1];
      mark();
      return answer;
    });
  }
  function told(answer) {
    var sentence = el("ps-plan-sentence");
    if (answer.sentence) { sentence.textContent = answer.sentence; }
    else if (answer.moves.length) {
      sentence.textContent = answer.moves.map(function (m, i) {
        return root.querySelector('input[name=ps-plan-who][value="' + answer.when[i].seat + '"]')
          .parentNode.textContent.trim() + ": " + m;
      }).join(" / ");
    }
    el("ps-plan-branch").value = play ? JSON.stringify({when: when, play: play}) : "";
    el("ps-plan-add").disabled = !play;
  }
  function fresh() {
    path = []; target = null;
    el("ps-plan-move").textContent = "—";
    mark();
  }
  el("ps-plan-keep").addEventListener("click", function () {
    var mover = who(), move = activation(path, target);
    var asked = mover === seat ? post(when, move)
      : post(when.concat([{seat: mover, move: move}]), play);
    asked.then(function (answer) {
      if (!answer) { return; }
      if (mover === seat) { play = answer.play; }
      else {
        when = answer.when;
        // Next: the reply (a seat's activations alternate).
        root.querySelector('input[name=ps-plan-who][value="' + seat + '"]').checked = true;
        tanks();
      }
      fresh();
      told(answer);
    });
  });
  el("ps-plan-undo").addEventListener("click", function () {
    if (target !== null) { check(path, null); } else if (path.length) { check(path.slice(0, -1), null); }
  });
  el("ps-plan-restart").addEventListener("click", function () {
    when = []; play = null;
    fresh();
    el("ps-plan-sentence").textContent = el("ps-plan-sentence").dataset.empty;
    el("ps-plan-branch").value = "";
    el("ps-plan-add").disabled = true;
    firstWho();
    showProblems([]);
  });
  el("ps-plan-sentence").dataset.empty = el("ps-plan-sentence").textContent;
  // The first activation to build: at the top of the plan, the seat to move now's; under a
  // line, the other seat's (it activates next).
  function firstWho() {
    var radios = root.querySelectorAll("input[name=ps-plan-who]");
    var now = el("ps-plan-under").value === "" && root.dataset.toMove !== ""
      && root.querySelector('input[name=ps-plan-who][value="' + root.dataset.toMove + '"]');
    (now || radios[0]).checked = true;
    tanks();
  }
  el("ps-plan-under").addEventListener("change", function () {
    el("ps-plan-under-field").value = el("ps-plan-under").value;
    if (!when.length && !play && !path.length) { firstWho(); }
  });
  root.querySelectorAll("input[name=ps-plan-who]").forEach(function (radio) {
    radio.addEventListener("change", function () { tanks(); fresh(); });
  });
  root.querySelectorAll("input[name=ps-plan-action]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      var a = action();
      if (a === "fire" || a === "ambush") { path = []; }
      if (a === "move" || a === "ambush") { target = null; }
      root.querySelector('input[name=ps-plan-tool][value="' + (a === "fire" ? "target" : "move")
        + '"]').checked = true;
      el("ps-plan-move").textContent = "—";
      mark();
    });
  });
  el("ps-plan-tank").addEventListener("change", fresh);
  el("ps-plan-under-field").value = el("ps-plan-under").value;
  firstWho();
  el("ps-plan-turn").addEventListener("click", function () {
    check(path.concat([{turn: +el("ps-plan-face").value}]), target);
  });
  // A hex clicked (or chosen with Enter: board.js) adds a step to the path or names the target.
  wrap.addEventListener("click", function (event) {
    var node = event.target.closest && event.target.closest("[data-hex]");
    if (!node) { return; }
    var hex = node.getAttribute("data-hex"), tool = picked("ps-plan-tool", "move");
    if (tool === "target") { check(path, hex); return; }
    var step = {face: +el("ps-plan-face").value};
    step[tool === "reverse" ? "reverse" : "move"] = hex;
    check(path.concat([step]), target);
  });
})();
