// Phones: a table of columns is shown as one card per row (floor.css); each cell gets the name of
// its column (data-label) from the header row so the card still says what each value is.
// Layout only: the page works the same without it.
"use strict";
window.labelTables = function (root) {
  (root || document).querySelectorAll("table.grid").forEach(function (table) {
    const head = table.querySelector("thead tr") || table.querySelector("tr");
    if (!head || head.querySelector("td")) return; // a table of facts (th beside td) needs no labels
    const names = Array.from(head.children).map(function (th) { return th.textContent.trim(); });
    table.querySelectorAll("tr").forEach(function (tr) {
      if (tr === head) return;
      let column = 0;
      Array.from(tr.children).forEach(function (cell) {
        if (cell.tagName === "TD" && !cell.hasAttribute("data-label")) cell.dataset.label = names[column] || "";
        column += cell.colSpan || 1;
      });
    });
  });
};
document.addEventListener("DOMContentLoaded", function () { window.labelTables(); });
// A "Print" button (data-print) prints the page: a handler here, not an onclick attribute, because
// the Content-Security-Policy runs only this site's own script files (floor/security.py).
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});
