// Clicks on the board only fill form fields; the forms are the whole truth.
(function () {
  function fill(id, value) {
    var field = document.getElementById(id);
    if (field) { field.value = value; field.focus(); }
  }
  // Reachable and target hexes are tab stops: Enter or Space acts like a click.
  document.addEventListener("keydown", function (event) {
    var hex = event.target.closest && event.target.closest(".ps-hex[tabindex]");
    if (hex && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      hex.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
  });
  document.addEventListener("click", function (event) {
    var hex = event.target.closest && event.target.closest(".ps-hex, .ps-tank");
    if (hex && hex.closest(".ps-board")) {
      var name = hex.getAttribute("data-hex");
      var cell = document.querySelector('.ps-hex[data-hex="' + name + '"]');
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
