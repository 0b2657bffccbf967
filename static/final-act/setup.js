/* The Final Act setup panel, driven from the board.
 *
 * The form (#fa-setup-form) is the whole truth: this script only fills its fields when squares
 * are clicked, and shades where the chosen piece may go (from #fa-setup-legal, which the server
 * takes from the engine's legal setup areas). After each click it fires "fa:setup-changed", on
 * which the panel posts the form for the live check; the server answers with the problems and
 * the live board showing the draft. Which piece is being placed is the only thing kept here.
 *
 * Choose a piece with its "Place" button, then click (or press Enter on) a square:
 *   large berm: one square, then an orthogonal neighbour;  small berm: one square;
 *   swamp: the 2 x 2 block with the clicked square at its top left on screen (moved inwards at
 *   the board's edge);  minefield: three squares in a line (or one end, then the other), then
 *   the passage square;  unit: its square (then the next unplaced unit is chosen).
 * A piece's button chooses it (pressed again, it stays chosen); a click on a whole minefield
 * that has no passage yet sets the passage there.
 * Keys (outside form fields): R turns the unit placed or chosen last clockwise, Escape drops
 * the choice.
 */
(function () {
  "use strict";

  const LIVE = "fa-board-live";
  const FILES = "abcdefghijkl";
  const TURN = { N: "E", E: "S", S: "W", W: "N" };
  const FIELD_OF = {
    large_berm: "f-large_berm",
    small_berm1: "f-small_berm1",
    small_berm2: "f-small_berm2",
    swamp: "f-swamp",
    minefield: "f-minefield",
    passage: "f-minefield-passage",
  };
  let piece = null; // "large_berm" | "small_berm1" | ... | "passage" | "unit"
  let unit = null; // the unit being placed when piece is "unit"
  let turning = null; // the unit R turns: the one placed or chosen last

  function legal() {
    const node = document.getElementById("fa-setup-legal");
    return node ? JSON.parse(node.textContent) : null;
  }
  function form() { return document.getElementById("fa-setup-form"); }
  function board() { return document.getElementById(LIVE); }
  function field(name) { const f = form(); return f ? f.elements.namedItem(name) : null; }
  // The panel's words in the reader's language (#fa-setup-words), with %(name)s filled in.
  function words(key, values) {
    const node = document.getElementById("fa-setup-words");
    const all = node ? JSON.parse(node.textContent) : {};
    return (all[key] || key).replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }
  function say(text) {
    const node = document.getElementById("fa-setup-announce");
    if (node) node.textContent = text;
  }
  function changed() { document.body.dispatchEvent(new CustomEvent("fa:setup-changed")); }

  function squaresIn(input) {
    return input && input.value.trim() ? input.value.trim().toLowerCase().split(/[\s,;]+/) : [];
  }
  function setSquares(input, squares) { input.value = squares.join(" "); }
  function coords(square) {
    return [FILES.indexOf(square[0]), parseInt(square.slice(1), 10) - 1];
  }
  function nameOf(file, rank) { return FILES[file] + String(rank + 1); }

  function fieldOf() {
    return piece === "unit" ? field(`u-${unit}-at`) : field(FIELD_OF[piece]);
  }
  function areaOf() {
    const data = legal();
    if (!data || !piece) return [];
    if (piece === "unit") return data.areas.unit;
    if (piece === "passage") return squaresIn(field("f-minefield"));
    return data.areas[piece.startsWith("small_berm") ? "small_berm" : piece] || [];
  }
  function pieceWords() { return piece === "unit" ? unit : words(`piece:${piece}`, {}); }

  function redraw() {
    const svg = board();
    document.querySelectorAll(".fa-setup-pick").forEach((button) => {
      const on = button.dataset.piece === piece && (piece !== "unit" || button.dataset.unit === unit);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
    if (!svg || !window.FABoard) return;
    FABoard.clear(svg, "is-area");
    FABoard.clear(svg, "is-selected");
    if (!piece) return;
    FABoard.mark(svg, "is-area", areaOf());
    const input = fieldOf();
    if (input) FABoard.mark(svg, "is-selected", squaresIn(input));
  }

  function choose(newPiece, newUnit) {
    piece = newPiece;
    unit = newUnit || null;
    turning = unit;
    redraw();
    if (!piece) return;
    say(words("placing", { piece: pieceWords(), hint: words(`hint:${piece}`, {}) }));
  }

  function focusBoard() {
    const svg = board();
    const input = fieldOf();
    const start = squaresIn(input)[0] || areaOf()[0];
    if (svg && window.FABoard && start) FABoard.focus(svg, start);
  }

  // The 2 x 2 block with ``square`` at its top left on screen (squares know their screen
  // column and row, so a flipped board needs nothing special); moved inwards at the edges.
  function screenBlock(square) {
    const svg = board();
    if (!svg) return null;
    const at = {};
    let here = null;
    svg.querySelectorAll("rect.fa-sq[data-square]").forEach((rect) => {
      at[`${rect.dataset.col},${rect.dataset.row}`] = rect.dataset.square;
      if (rect.dataset.square === square) here = rect;
    });
    if (!here) return null;
    const col = parseInt(here.dataset.col, 10);
    const row = parseInt(here.dataset.row, 10);
    const dc = at[`${col + 1},${row}`] ? 1 : -1;
    const dr = at[`${col},${row + 1}`] ? 1 : -1;
    const block = [[col, row], [col + dc, row], [col, row + dr], [col + dc, row + dr]]
      .map(([c, r]) => at[`${c},${r}`]);
    return block.every(Boolean) ? block : null;
  }

  function placeLargeBerm(input, square) {
    const now = squaresIn(input);
    if (now.length === 1 && now[0] !== square) {
      const [a, b] = [coords(now[0]), coords(square)];
      if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1) {
        setSquares(input, [now[0], square]);
        say(words("berm_done", { first: now[0], square: square }));
        return true;
      }
    }
    if (now.length === 1 && now[0] === square) {
      setSquares(input, []);
      say(words("berm_removed", {}));
      return false;
    }
    setSquares(input, [square]);
    say(words("berm_started", { square: square }));
    return false;
  }

  function placeMinefield(input, square) {
    let now = squaresIn(input);
    if (now.length >= 3) now = [];
    if (now.includes(square)) {
      now = now.filter((s) => s !== square);
    } else if (now.length === 1) {
      const [a, b] = [coords(now[0]), coords(square)];
      const straight = (a[0] === b[0] && Math.abs(a[1] - b[1]) === 2) ||
                       (a[1] === b[1] && Math.abs(a[0] - b[0]) === 2);
      if (straight) {
        now = [now[0], nameOf((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), square];
      } else {
        now.push(square);
      }
    } else {
      now.push(square);
    }
    setSquares(input, now);
    // A passage left off the new squares would only fail the seal later: drop it now.
    const passage = field(FIELD_OF.passage);
    if (passage && passage.value.trim() && !now.includes(passage.value.trim().toLowerCase())) {
      passage.value = "";
    }
    if (now.length === 3) {
      say(words("minefield_done", { squares: now.join(", ") }));
      piece = "passage";
      return false;
    }
    say(now.length ? words("minefield_some", { squares: now.join(", ") })
                   : words("minefield_none", {}));
    return false;
  }

  function nextUnplaced() {
    const data = legal();
    if (!data) return null;
    return data.units.find((name) => { const f = field(`u-${name}-at`); return f && !f.value.trim(); }) || null;
  }

  function place(square) {
    const input = fieldOf();
    if (!input) return;
    let done = true;
    if (piece === "large_berm") {
      done = placeLargeBerm(input, square);
    } else if (piece === "swamp") {
      const block = screenBlock(square);
      if (!block) { say(words("no_block", { square: square })); return; }
      setSquares(input, block);
      say(words("swamp_done", { squares: block.join(", ") }));
    } else if (piece === "minefield") {
      done = placeMinefield(input, square);
    } else if (piece === "passage") {
      if (!squaresIn(field("f-minefield")).includes(square)) {
        say(words("not_minefield", { square: square }));
        return;
      }
      input.value = square;
      say(words("passage_done", { square: square }));
    } else if (piece === "unit") {
      input.value = square;
      turning = unit;
      const next = nextUnplaced();
      say(words(next ? "unit_next" : "unit_last", { unit: unit, square: square, next: next }));
      if (next) { unit = next; done = false; }
    } else {
      input.value = square;
      const named = words(`piece:${piece}`, {});
      say(words("placed", { piece: named[0].toUpperCase() + named.slice(1), square: square }));
    }
    if (done) { piece = null; unit = null; }
    changed();
    redraw();
  }

  // A click with nothing chosen picks up the piece standing on that square.
  function pieceAt(square) {
    const data = legal();
    if (!data) return null;
    for (const name of data.units) {
      if (squaresIn(field(`u-${name}-at`)).includes(square)) return ["unit", name];
    }
    for (const key of ["large_berm", "small_berm1", "small_berm2", "swamp", "minefield"]) {
      if (squaresIn(field(FIELD_OF[key])).includes(square)) return [key, null];
    }
    return null;
  }

  function turn(name) {
    const select = field(`u-${name}-facing`);
    if (!select) { say(words("r_forward", {})); return; }
    select.value = TURN[select.value] || "N";
    say(words("faces", { unit: name, facing: select.value }));
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function onSquare(event) {
    const svg = event.detail.board;
    if (!svg || svg.id !== LIVE || !form()) return;
    const square = event.detail.square;
    if (piece) { place(square); return; }
    const found = pieceAt(square);
    // A whole minefield without its passage: a click on it chooses the passage (a fresh
    // minefield starts with its button).
    if (found && found[0] === "minefield" && !(field(FIELD_OF.passage).value || "").trim() &&
        squaresIn(field(FIELD_OF.minefield)).length === 3) {
      choose("passage");
      place(square);
      return;
    }
    if (found) { choose(found[0], found[1]); return; }
    say(words("nothing_here", { square: square }));
  }

  function onClick(event) {
    if (!form()) return;
    const pick = event.target.closest(".fa-setup-pick");
    const turnButton = event.target.closest(".fa-setup-turn");
    if (pick) {
      // A piece's button always chooses that piece, even when it is already the one being
      // placed (the minefield hands over to its passage by itself, so a player pressing
      // "Passage" then must not lose the choice): Escape drops it.
      if (pick.dataset.piece === "passage" && squaresIn(field("f-minefield")).length !== 3) {
        say(words("passage_first", {}));
        return;
      }
      choose(pick.dataset.piece, pick.dataset.unit);
      focusBoard();
    } else if (turnButton) {
      turn(turnButton.dataset.unit);
    }
  }

  function onKey(event) {
    if (!form() || event.target.matches("input, select, textarea, button")) return;
    if (event.key === "Escape" && piece) {
      choose(null);
      say(words("dropped", {}));
    } else if ((event.key === "r" || event.key === "R") && turning) {
      event.preventDefault();
      turn(turning);
    }
  }

  document.addEventListener("fa:square", onSquare);
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  // The live check redraws the board: put the shading back on the new one.
  document.body.addEventListener("htmx:afterSettle", redraw);
})();
