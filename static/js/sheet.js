// A game's clickable board away from a match (the analysis board, a lesson): its order panel
// seals nothing itself, it hands the finished orders (the sheet, as the engine reads it) to
// the page's form marked data-sheet-form, which plays them. Two ways to hand them over:
// a form of the panel marked data-sheet-part (its fields, as text, less the CSRF token: the
// game's plug-in reads them, GamePlugin.board_sheet), or window.portalSheet.send(element, sheet).
(function () {
  "use strict";
  if (window.portalSheet) return; // loaded once, even if a swapped-in board brings it again

  function send(from, sheet) {
    const scope = (from && from.closest && from.closest("[data-play-board]")) || document;
    const form = scope.querySelector("form[data-sheet-form]") ||
      document.querySelector("form[data-sheet-form]");
    if (!form) return false;
    form.elements.namedItem("sheet").value = JSON.stringify(sheet);
    form.requestSubmit();
    return true;
  }

  function partSheet(form) {
    const sheet = {};
    for (const field of form.elements) {
      if (!field.name || field.name === "csrfmiddlewaretoken" || field.disabled) continue;
      if ((field.type === "radio" || field.type === "checkbox") && !field.checked) continue;
      const value = field.value.trim();
      if (value === "") continue;
      if (!(field.name in sheet)) sheet[field.name] = value;
      else sheet[field.name] = [].concat(sheet[field.name], value); // a repeated name: a list
    }
    return sheet;
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-sheet-part]")) return;
    event.preventDefault();
    send(form, partSheet(form));
  });

  window.portalSheet = { send: send };
})();
