/* The Final Act order sheet, driven from the board.
 *
 * The form (#fa-sheet-form) is the whole truth: this script only fills its fields when squares
 * are clicked, and highlights what the selected unit may do, from the legal choices the server
 * put in #fa-legal. Every change fires "change" on the form, which posts the draft for the live
 * check (the server answers with the problems and the board with the plan drawn on it).
 *
 * Click (or Enter on) one of your units: its move destinations are marked; click one to move
 * there. After a diagonal move the panel offers the turn: choosing that square again toggles
 * the turn (not a shot at it, even though the unit is aiming by then). Then the unit is in aim mode:
 * its cone is shaded, squares it can shell marked apart from blocked ones; click a square to
 * fire there (again to hold fire). Keys: F aim, M move, Escape drop the selection. A token's
 * "Pick on the board" marks the squares it may go to; "Pick targets" does the same for the two
 * shells of an air strike (by the square it is called from) or a quick shot (its tank's targets).
 */
(function () {
  "use strict";

  const LIVE = "fa-board-live";
  let selected = null; // unit name
  let mode = "move"; // "move" | "fire" | "token:<name>"
  // The turn the panel has just offered ("choose c2 again to turn"): {unit, square}. The next
  // choice of that square gives exactly that order; any other choice withdraws the offer.
  let turnOffer = null;

  function legal() {
    const node = document.getElementById("fa-legal");
    return node ? JSON.parse(node.textContent) : null;
  }
  function form() { return document.getElementById("fa-sheet-form"); }
  function board() { return document.getElementById(LIVE); }
  function field(name) { const f = form(); return f ? f.elements.namedItem(name) : null; }

  function say(text) {
    const node = document.getElementById("fa-announce");
    if (node) node.textContent = text;
  }

  // The page's words in the reader's language (#fa-words), with %(name)s filled in.
  function words(key, values) {
    const node = document.getElementById("fa-words");
    const all = node ? JSON.parse(node.textContent) : {};
    return (all[key] || key).replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }

  // An action token's name in the reader's language ("Air strike").
  function tokenName(token) { return words(`token:${token}`, {}); }

  // The form arrives as plain text fields (they work without JavaScript); each field with
  // data-choices becomes a select of the choices sent once in #fa-legal. A value the choices do
  // not hold (a refused sheet, as typed) stays selected, marked as such, never replaced.
  function upgrade(root) {
    const data = legal();
    if (!data || !data.choices || !root.querySelectorAll) return;
    for (const input of root.querySelectorAll("#fa-sheet-form input[data-choices]")) {
      const choices = data.choices[input.name];
      if (!choices) continue;
      const select = document.createElement("select");
      for (const attr of input.attributes) {
        if (!["type", "value", "size", "autocomplete", "spellcheck", "data-choices"].includes(attr.name)) {
          select.setAttribute(attr.name, attr.value);
        }
      }
      let found = false;
      for (const [value, text] of choices) {
        const option = new Option(text, value, false, value === input.value);
        found = found || value === input.value;
        select.add(option);
      }
      if (!found) {
        const note = input.dataset.unknown ? ` (${input.dataset.unknown})` : "";
        select.add(new Option(`${input.value}${note}`, input.value, false, true));
      }
      select.value = input.value;
      input.replaceWith(select);
      document.querySelectorAll(`.fa-hint[data-hint-for="${input.name}"]`).forEach((hint) => {
        if (!hint.classList.contains("errors")) hint.hidden = true;
      });
    }
  }

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function unitAt(square) {
    const data = legal();
    if (!data) return null;
    for (const [name, info] of Object.entries(data.units)) {
      if (info.at === square) return name;
    }
    return null;
  }

  function clearMarks() {
    const svg = board();
    if (!svg || !window.FABoard) return;
    for (const cls of ["is-legal", "is-cone", "is-blocked", "is-selected", "is-target", "is-area"]) {
      FABoard.clear(svg, cls);
    }
  }

  function currentTargets(name) {
    const out = [];
    for (const key of ["fire", "fire2"]) {
      const input = field(`u-${name}-${key}`);
      if (input && input.value) out.push(input.value);
    }
    return out;
  }

  function redraw() {
    clearMarks();
    const svg = board();
    const data = legal();
    if (!svg || !data || !window.FABoard) return;
    document.querySelectorAll(".fa-unit-row.is-current").forEach((row) => row.classList.remove("is-current"));
    if (mode.startsWith("token:")) {
      const token = mode.slice(6);
      FABoard.mark(svg, "is-area", data.tokens[token] || []);
      return;
    }
    if (mode.startsWith("tokenfire:")) {
      const token = mode.slice(10);
      FABoard.mark(svg, "is-cone", tokenTargets(token) || []);
      FABoard.mark(svg, "is-target", tokenShells(token));
      return;
    }
    if (!selected || !data.units[selected]) return;
    const info = data.units[selected];
    const row = document.getElementById(`fa-row-${selected}`);
    if (row) row.classList.add("is-current");
    FABoard.mark(svg, "is-selected", [info.at]);
    if (mode === "move") {
      FABoard.mark(svg, "is-legal", [...new Set(info.moves.map((m) => m.to))]);
    } else {
      FABoard.mark(svg, "is-cone", info.fire);
      FABoard.mark(svg, "is-blocked", info.blocked || []);
      FABoard.mark(svg, "is-target", currentTargets(selected));
    }
  }

  function select(name, newMode) {
    const data = legal();
    if (!data || !data.units[name]) return;
    selected = name;
    turnOffer = null;
    mode = newMode || "move";
    const info = data.units[name];
    redraw();
    if (mode === "move") {
      say(words(info.fire.length ? "selected_aim" : "selected", { unit: name, square: info.at }));
    } else {
      aimHelp(name);
    }
  }

  function aimHelp(name) {
    const info = legal().units[name];
    if (!info.fire.length) {
      say(words("cannot_fire", { unit: name }));
      return;
    }
    say(words(info.fire.length === 1 ? "aims_one" : "aims", { unit: name, count: info.fire.length }));
  }

  function chooseMove(name, square) {
    const info = legal().units[name];
    const options = info.moves.filter((m) => m.to === square);
    if (!options.length) return false;
    const move = field(`u-${name}-move`);
    const turn = field(`u-${name}-turn`);
    const plain = options.find((m) => !m.turn) || options[0];
    const withTurn = options.find((m) => m.turn);
    const values = { unit: name, move: plain.move, square: square,
                     facing: withTurn ? withTurn.facing : "" };
    let text;
    if (move.value === plain.move && withTurn && turn) {
      // The same destination again: toggle the turn that a diagonal move allows.
      turn.checked = !turn.checked;
      changed(turn);
      text = words(turn.checked ? "turning" : "keeping", values);
    } else {
      move.value = plain.move;
      if (turn) turn.checked = false;
      changed(move);
      text = plain.move === "stay" ? words("stays", values) : words("moves", values);
      if (withTurn) text += " " + words("turn_offer", values);
    }
    turnOffer = withTurn && turn ? { unit: name, square: square } : null;
    if (info.kind === "at" && plain.move !== "stay") {
      text += " " + words("at_moves", values);
    } else if (info.fire.length) {
      mode = "fire";
      text += " " + words("aiming", values);
    }
    say(text);
    redraw();
    return true;
  }

  function chooseTarget(name, square) {
    const info = legal().units[name];
    const move = field(`u-${name}-move`);
    if (info.kind === "at" && move && move.value !== "stay") {
      say(words("at_moving", { unit: name, move: move.value }));
      return true;
    }
    if (!info.fire.includes(square)) {
      if ((info.blocked || []).includes(square)) say(words("blocked", { unit: name, square: square }));
      else say(words("outside", { unit: name, square: square }));
      return true;
    }
    const first = field(`u-${name}-fire`);
    const second = field(`u-${name}-fire2`);
    if (first.value === square) {
      first.value = second && second.value ? second.value : "";
      if (second) second.value = "";
      changed(first);
      say(words("no_longer_fires", { unit: name, square: square }));
    } else if (second && second.value === square) {
      second.value = "";
      changed(second);
      say(words("second_no_longer", { unit: name, square: square }));
    } else if (first.value && second) {
      second.value = square;
      changed(second);
      say(words("second_fires", { unit: name, square: square }));
    } else {
      first.value = square;
      changed(first);
      say(words("fires", { unit: name, square: square }));
    }
    redraw();
    return true;
  }

  // Token shells (air strike, quick shot): up to two squares in a text field.
  function tokenTargets(token) {
    const data = legal();
    if (token === "air_strike") {
      const at = field("t-air_strike-at");
      return at && at.value ? (data.token_fire.air_strike || {})[at.value] : null;
    }
    const unit = field("t-quick_shot-unit");
    return unit && unit.value && data.units[unit.value] ? data.units[unit.value].fire : null;
  }

  function tokenShells(token) {
    const input = field(`t-${token}-fire`);
    return input ? input.value.split(/[\s,]+/).filter(Boolean) : [];
  }

  function startTokenFire(token) {
    const targets = tokenTargets(token);
    if (!targets) {
      say(words(token === "air_strike" ? "air_strike_first" : "quick_shot_first", {}));
      return;
    }
    selected = null;
    mode = `tokenfire:${token}`;
    redraw();
    say(words("token_fire_start", { token: tokenName(token) }));
    if (window.FABoard && board() && targets.length) FABoard.focus(board(), targets[0]);
  }

  function chooseTokenShell(token, square) {
    const input = field(`t-${token}-fire`);
    const targets = tokenTargets(token) || [];
    let shells = tokenShells(token);
    if (shells.includes(square)) {
      shells = shells.filter((s) => s !== square);
      say(words("dropped", { square: square }));
    } else if (!targets.includes(square)) {
      say(words("token_cannot_target", { token: tokenName(token), square: square }));
      return;
    } else if (shells.length >= 2) {
      say(words("two_shells", {}));
      return;
    } else {
      shells.push(square);
      say(words(shells.length === 1 ? "token_fires_one" : "token_fires_two",
                { token: tokenName(token), square: shells[0], second: shells[1] }));
    }
    input.value = shells.join(" ");
    changed(input);
    redraw();
  }

  function chooseTokenSquare(token, square) {
    const input = field(`t-${token}-at`);
    const allowed = legal().tokens[token] || [];
    if (!input) return;
    if (!allowed.includes(square)) {
      say(words("token_bad_square", { square: square }));
      return;
    }
    input.value = square;
    changed(input);
    say(words("token_placed", { token: tokenName(token), square: square }));
    mode = "move";
    selected = null;
    redraw();
  }

  function onSquare(event) {
    const svg = event.detail.board;
    if (!svg || svg.id !== LIVE || !form()) return;
    const square = event.detail.square;
    if (mode.startsWith("token:")) {
      chooseTokenSquare(mode.slice(6), square);
      return;
    }
    if (mode.startsWith("tokenfire:")) {
      chooseTokenShell(mode.slice(10), square);
      return;
    }
    const own = unitAt(square);
    const offered = turnOffer && turnOffer.unit === selected && turnOffer.square === square;
    turnOffer = null;
    // The square the panel just offered for a turn gives the turn, in move or aim mode alike.
    if (selected && (mode === "move" || offered) && chooseMove(selected, square)) return;
    if (selected && mode === "fire" && !(own && own !== selected && !legal().units[selected].fire.includes(square))) {
      if (own === selected) { select(selected, "move"); return; }
      chooseTarget(selected, square);
      return;
    }
    if (own) { select(own, "move"); return; }
    say(words("not_yours", { square: square }));
  }

  function onKey(event) {
    if (!form() || event.target.matches("input, select, textarea")) return;
    if (event.key === "Escape" && (selected || mode !== "move")) {
      selected = null; mode = "move"; turnOffer = null; redraw(); say(words("selection_dropped", {}));
    } else if ((event.key === "f" || event.key === "F") && selected) {
      mode = "fire"; turnOffer = null; redraw(); aimHelp(selected);
    } else if ((event.key === "m" || event.key === "M") && selected) {
      select(selected, "move");
    }
  }

  function onClick(event) {
    const pick = event.target.closest(".fa-pick-unit");
    const aim = event.target.closest(".fa-aim");
    const tokenPick = event.target.closest(".fa-token-pick");
    const tokenFire = event.target.closest(".fa-token-fire-pick");
    if (tokenFire) {
      startTokenFire(tokenFire.dataset.token);
      return;
    }
    const reset = event.target.closest("#fa-reset");
    if (pick) {
      select(pick.dataset.unit, "move");
      if (window.FABoard && board()) FABoard.focus(board(), legal().units[pick.dataset.unit].at);
    } else if (aim) {
      select(aim.dataset.unit, "fire");
      if (window.FABoard && board()) FABoard.focus(board(), legal().units[aim.dataset.unit].at);
    } else if (tokenPick) {
      selected = null;
      mode = `token:${tokenPick.dataset.token}`;
      redraw();
      say(words("token_choose", { token: tokenName(tokenPick.dataset.token) }));
      if (window.FABoard && board()) {
        const squares = legal().tokens[tokenPick.dataset.token] || [];
        if (squares.length) FABoard.focus(board(), squares[0]);
      }
    } else if (reset) {
      const f = form();
      for (const el of f.elements) {
        if (el.name && el.name.startsWith("u-") && el.name.endsWith("-move")) el.value = "stay";
        else if (el.type === "checkbox") el.checked = false;
        else if (el.name && (el.name.startsWith("t-") || el.name.startsWith("d-") || /-fire2?$/.test(el.name))) el.value = "";
      }
      for (const el of f.elements) {
        if (el.name && el.name.startsWith("u-") && el.name.endsWith("-face")) {
          const name = el.name.slice(2, -5);
          const at = legal().units[name];
          if (at && el.dataset.initial) el.value = el.dataset.initial;
        }
      }
      changed(f.elements[0] || f);
      selected = null; mode = "move"; turnOffer = null; redraw();
      say(words("cleared", {}));
    }
  }

  function onFieldChange(event) {
    // Choosing in the form moves the board's attention to that unit.
    const name = event.target.dataset && event.target.dataset.unit;
    // A change the player made in the form (not one this script made) withdraws a turn offer.
    if (event.isTrusted) turnOffer = null;
    if (name && legal() && legal().units[name]) {
      selected = name;
      mode = event.target.dataset.role === "fire" || event.target.dataset.role === "fire2" ? "fire" : "move";
      redraw();
    }
  }

  upgrade(document);
  // A board swapped in again (the analysis board) runs this script again: the listeners of
  // the run before are taken off first, so that each event is handled once.
  const before = window.faOrdersListeners || [];
  before.forEach(([target, type, listener]) => target.removeEventListener(type, listener));
  const onLoad = (event) => upgrade(event.target);
  window.faOrdersListeners = [
    // A sealed or refused sheet comes back as a new panel (with new choices): upgrade it too.
    [document.body, "htmx:load", onLoad],
    [document, "fa:square", onSquare],
    [document, "keydown", onKey],
    [document, "click", onClick],
    [document, "change", onFieldChange],
    // The live check redraws the board: put the marks back on the new one.
    [document.body, "htmx:afterSettle", redraw],
  ];
  window.faOrdersListeners.forEach(([target, type, listener]) => target.addEventListener(type, listener));
})();
