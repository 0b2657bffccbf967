// Tank Game: the board I act on (templates/games/tank-game/partials/board_svg.html) with the
// keyboard or a click. The forms of my action panel are the whole truth: choosing a square
// (Enter, Space or a click) puts it in the first form of the panel that offers it (move to,
// shoot at, give gold to; choosing it again, in the next one), says so (#tank-board-say) and
// moves the focus to that form's button; nothing is sent until that button is pressed. One tab stop on the board (roving tabindex, my tank's square
// first); the arrow keys move between squares, Home / End to the ends of the row. The play
// area is redrawn after each action and by its poll: the focus comes back to where it was.
(function () {
  "use strict";
  // Once per page: a board swapped in again (the analysis board) may bring this script again.
  if (window.tankBoardReady) return;
  window.tankBoardReady = true;

  const SQUARE = ".tank-sq[data-square]";
  const STEPS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

  function moveTo(svg, rect) {
    if (!rect) return;
    svg.querySelectorAll('.tank-sq[tabindex="0"]').forEach((node) => node.setAttribute("tabindex", "-1"));
    rect.setAttribute("tabindex", "0");
    rect.focus();
  }

  // The last square chosen and which of its actions was offered: choosing it again offers
  // the next one (move, then shoot, then give), so one click never fills two forms.
  let last = { square: null, index: -1 };

  function choose(rect) {
    if (rect.getAttribute("aria-disabled") === "true") return;
    const square = rect.dataset.square;
    const play = rect.closest("#tank-play") || document;
    const offering = Array.from(play.querySelectorAll("form")).filter((form) => {
      const select = form.querySelector("select[name=to], select[name=at]");
      return select && Array.from(select.options).some((o) => o.value === square);
    });
    const said = play.querySelector("#tank-board-say");
    if (!offering.length) {
      last = { square: null, index: -1 };
      if (said) said.textContent = (said.dataset.nothing || "").replace("{square}", square);
      return;
    }
    const index = last.square === square ? (last.index + 1) % offering.length : 0;
    last = { square: square, index: index };
    const form = offering[index];
    form.querySelector("select[name=to], select[name=at]").value = square;
    if (said) {
      let text = (form.dataset.chosen || "").replace("{square}", square);
      if (offering.length > 1 && said.dataset.more) text += " " + said.dataset.more;
      said.textContent = text;
    }
    const button = form.querySelector("button[type=submit]");
    if (button) button.focus();
  }

  document.addEventListener("click", (event) => {
    const rect = event.target.closest && event.target.closest(SQUARE);
    if (rect) choose(rect);
  });

  document.addEventListener("keydown", (event) => {
    const rect = event.target.closest && event.target.closest(SQUARE);
    if (!rect || event.altKey || event.ctrlKey || event.metaKey) return;
    const svg = rect.closest("svg");
    const col = +rect.dataset.col, row = +rect.dataset.row;
    let next = null;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(rect);
      return;
    } else if (event.key in STEPS) {
      next = svg.querySelector(`.tank-sq[data-col="${col + STEPS[event.key][0]}"][data-row="${row + STEPS[event.key][1]}"]`);
    } else if (event.key === "Home" || event.key === "End") {
      const cells = svg.querySelectorAll(`.tank-sq[data-row="${row}"]`);
      next = event.key === "Home" ? cells[0] : cells[cells.length - 1];
    } else {
      return;
    }
    event.preventDefault(); // at the edge too: stay put, do not scroll
    moveTo(svg, next);
  });

  // The focus across the play area's redraw: a square by its name, a form's button by the
  // form's action type; if that is gone (the move was made), the board's tab stop.
  let remembered = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const active = document.activeElement;
    const play = document.getElementById("tank-play");
    remembered = null;
    if (!play || !active || !play.contains(active) || event.detail.target !== play) return;
    if (active.matches(SQUARE)) remembered = { square: active.dataset.square };
    else if (active.form) {
      const type = active.form.querySelector("input[name=type]");
      remembered = { type: type ? type.value : null, name: active.name || null };
    } else remembered = {};
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (!remembered) return;
    const play = document.getElementById("tank-play");
    const wanted = remembered;
    remembered = null;
    if (!play || (document.activeElement && document.activeElement !== document.body)) return;
    let target = null;
    if (wanted.square) target = play.querySelector(`.tank-sq[data-square="${wanted.square}"]`);
    else if (wanted.type) {
      const type = play.querySelector(`form input[name=type][value="${wanted.type}"]`);
      target = type && type.form.querySelector("button[type=submit]");
    }
    target = target || play.querySelector('.tank-sq[tabindex="0"]');
    if (target) target.focus();
  });
})();
