// Clicks on the board only fill form fields; the forms are the whole truth.
// The board the player chooses on (its svg has data-flipped) has one tab stop (roving
// tabindex): the arrow keys move between hexes in screen directions (seat 2 sees the board
// turned round), Home / End to the ends of the row, Enter or Space chooses the hex like a click
// (a shaded hex fills the path, an outlined one the target).
(function () {
  // Once per page: a board swapped in again (the analysis board) may bring this script again.
  if (window.psBoardReady) { return; }
  window.psBoardReady = true;
  function fill(id, value) {
    var field = document.getElementById(id);
    if (field) { field.value = value; field.focus(); }
  }
  var STEPS = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  function hexAt(svg, col, row) {
    return svg.querySelector('.ps-hex[data-col="' + col + '"][data-row="' + row + '"]');
  }
  function moveTo(svg, hex) {
    if (!hex) { return; }
    svg.querySelectorAll('.ps-hex[tabindex="0"]').forEach(function (node) {
      node.setAttribute("tabindex", "-1");
    });
    hex.setAttribute("tabindex", "0");
    hex.focus();
  }
  document.addEventListener("keydown", function (event) {
    var hex = event.target.closest && event.target.closest(".ps-hex[tabindex]");
    if (!hex || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var svg = hex.closest(".ps-board");
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (hex.getAttribute("aria-disabled") !== "true") {
        hex.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      }
      return;
    }
    var col = +hex.getAttribute("data-col"), row = +hex.getAttribute("data-row");
    var turned = svg.getAttribute("data-flipped") === "true" ? -1 : 1;
    var next = null;
    if (event.key in STEPS) {
      // Rows are numbered from the south: up the screen is the next row for seat 1.
      next = hexAt(svg, col + STEPS[event.key][0] * turned, row + STEPS[event.key][1] * turned);
    } else if (event.key === "Home" || event.key === "End") {
      var row_hexes = svg.querySelectorAll('.ps-hex[data-row="' + row + '"]');
      var first = row_hexes[0], last = row_hexes[row_hexes.length - 1];
      next = (event.key === "Home") === (turned === 1) ? first : last;
    } else {
      return;
    }
    event.preventDefault();  // at the edge of the map too: stay put, do not scroll
    moveTo(svg, next);
  });
  document.addEventListener("click", function (event) {
    var hex = event.target.closest && event.target.closest(".ps-hex, .ps-tank");
    if (hex && hex.closest(".ps-board")) {
      var name = hex.getAttribute("data-hex");
      // The hex of the board clicked (the plan's branch builder has a board of its own).
      var cell = hex.closest(".ps-board").querySelector('.ps-hex[data-hex="' + name + '"]');
      if (cell && cell.classList.contains("ps-target") && document.getElementById("ps-target")) {
        fill("ps-target", name);
      } else if (cell && cell.getAttribute("data-path")) {
        fill("ps-path", cell.getAttribute("data-path"));
      }
    }
    var button = event.target.closest && event.target.closest("[data-fill-path],[data-fill-target]");
    if (button) {
      if (button.hasAttribute("data-fill-path")) fill("ps-path", button.getAttribute("data-fill-path"));
      if (button.hasAttribute("data-fill-target")) fill("ps-target", button.getAttribute("data-fill-target"));
    }
  });
})();
