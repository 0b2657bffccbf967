// The Final Act board (templates/games/final-act/board.svg.html): clicks and keys on squares.
//
// Global FABoard. Every board on the page works through listeners on the document, so boards
// that htmx swaps in need no setup. A click on a square, or Enter / Space on the focused square,
// dispatches `fa:square` (detail: {square: "e4", board: svg}) on the svg; it bubbles.
// Keyboard: one tab stop per board (roving tabindex on the square rects); arrow keys move by
// one square in screen direction (data-col / data-row are screen positions, so a flipped board
// needs nothing special); Home / End jump to the ends of the row.
// FABoard.mark(svg, cls, squares) adds cls to those squares; FABoard.clear(svg, cls) removes it
// from every square; FABoard.focus(svg, square) moves the tab stop there and focuses it.
// After an htmx swap that replaces a board, the square that had focus gets it back.
(function () {
  "use strict";
  // Once per page: a board swapped in again (the analysis board) may bring this script again.
  if (window.faBoardReady) return;
  window.faBoardReady = true;

  const SQUARE = ".fa-sq[data-square]";

  function boardOf(target) {
    if (typeof target === "string") return document.getElementById(target);
    return target && target.closest ? target.closest("svg.fa-board") : null;
  }

  function squareEl(svg, square) {
    return svg ? svg.querySelector('.fa-sq[data-square="' + square + '"]') : null;
  }

  function setTabStop(svg, rect) {
    svg.querySelectorAll('.fa-sq[tabindex="0"]').forEach((el) => {
      if (el !== rect) el.setAttribute("tabindex", "-1");
    });
    rect.setAttribute("tabindex", "0");
  }

  function focusRect(svg, rect) {
    if (!svg || !rect) return;
    setTabStop(svg, rect);
    rect.focus({ preventScroll: false });
  }

  function announce(svg, rect) {
    svg.dispatchEvent(
      new CustomEvent("fa:square", {
        bubbles: true,
        detail: { square: rect.getAttribute("data-square"), board: svg },
      })
    );
  }

  function cellAt(svg, col, row) {
    return svg.querySelector('.fa-sq[data-col="' + col + '"][data-row="' + row + '"]');
  }

  function lastCol(svg, row) {
    let last = null;
    svg.querySelectorAll('.fa-sq[data-row="' + row + '"]').forEach((el) => {
      if (!last || +el.getAttribute("data-col") > +last.getAttribute("data-col")) last = el;
    });
    return last;
  }

  const STEPS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

  document.addEventListener("click", (event) => {
    const rect = event.target.closest && event.target.closest(SQUARE);
    const svg = boardOf(rect);
    if (!rect || !svg) return;
    setTabStop(svg, rect);
    announce(svg, rect);
  });

  document.addEventListener("keydown", (event) => {
    const rect = event.target.closest && event.target.closest(SQUARE);
    const svg = boardOf(rect);
    if (!rect || !svg || event.altKey || event.ctrlKey || event.metaKey) return;
    const col = +rect.getAttribute("data-col");
    const row = +rect.getAttribute("data-row");
    let next = null;
    if (event.key in STEPS) {
      const [dx, dy] = STEPS[event.key];
      next = cellAt(svg, col + dx, row + dy);
      if (!next) { event.preventDefault(); return; } // the edge: stay put, do not scroll
    } else if (event.key === "Home") {
      next = cellAt(svg, 0, row);
    } else if (event.key === "End") {
      next = lastCol(svg, row);
    } else if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      announce(svg, rect);
      return;
    } else {
      return;
    }
    event.preventDefault();
    focusRect(svg, next);
  });

  // Focus restore across htmx swaps: remember the focused square before, put it back after.
  let remembered = null;

  function remember() {
    const active = document.activeElement;
    if (active && active.matches && active.matches(SQUARE)) {
      const svg = boardOf(active);
      if (svg && svg.id) remembered = { id: svg.id, square: active.getAttribute("data-square") };
    }
  }

  function restore() {
    if (!remembered) return;
    const svg = document.getElementById(remembered.id);
    const rect = squareEl(svg, remembered.square);
    if (rect && document.activeElement !== rect) {
      const active = document.activeElement;
      // Only take focus back if it fell out of the page (to body) when the board was replaced.
      if (!active || active === document.body || !document.contains(active)) focusRect(svg, rect);
    }
    if (rect) remembered = null;
  }

  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:oobBeforeSwap", remember);
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSettle", restore);

  window.FABoard = {
    mark(svg, cls, squares) {
      const board = boardOf(svg);
      if (!board) return;
      (squares || []).forEach((square) => {
        const rect = squareEl(board, square);
        if (rect) rect.classList.add(cls);
      });
    },
    clear(svg, cls) {
      const board = boardOf(svg);
      if (!board) return;
      board.querySelectorAll("." + cls).forEach((el) => {
        if (el.matches(SQUARE)) el.classList.remove(cls);
      });
    },
    focus(svg, square) {
      const board = boardOf(svg);
      focusRect(board, squareEl(board, square));
    },
  };
})();
