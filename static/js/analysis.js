// The analysis board's keys: ← steps back, → steps forward (not while typing in a field).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.defaultPrevented) return;
  // (nor on the clickable board: its arrow keys move between its squares)
  if (event.target.closest("input, textarea, select, [contenteditable], [data-play-board]")) return;
  const key = {ArrowLeft: "back", ArrowRight: "forward"}[event.key];
  const link = key && document.querySelector(`#analysis [data-key="${key}"]`);
  if (!link) return;
  event.preventDefault();
  link.click();
});
// After a step, focus the position's heading so a screen reader reads where it is.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target.id !== "analysis") return;
  const heading = document.getElementById("position-heading");
  if (heading) heading.focus({preventScroll: true});
});
