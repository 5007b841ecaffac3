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
// A form that posts (issuing a ruling that awards a pot, moving chips, saving a profile) is sent
// once: a second tap while the first is on its way does nothing, so a double tap never acts twice.
// The server's own checks (the table's expected version) stay the guard of last resort.
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (!form || (form.method || "").toLowerCase() !== "post" || form.hasAttribute("data-event")) return;
  if (form.dataset.sending) { event.preventDefault(); return; }
  form.dataset.sending = "1";
  setTimeout(function () {
    form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]").forEach(function (b) {
      b.disabled = true;
      b.setAttribute("aria-busy", "true");
    });
  }, 0);
});
// back to a page from the browser's history: its forms may be sent again
window.addEventListener("pageshow", function () {
  document.querySelectorAll("form[data-sending]").forEach(function (form) {
    delete form.dataset.sending;
    form.querySelectorAll("[aria-busy=true]").forEach(function (b) { b.disabled = false; b.removeAttribute("aria-busy"); });
  });
});
