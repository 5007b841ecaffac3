"use strict";
// The page refreshes its panel every few seconds (not while a form is being sent), and says so
// when a new floor call comes in from a table of the event.
(function () {
  const panel = document.getElementById("floor-panel");
  let calls = Number(panel.querySelector("[data-calls]")?.dataset.calls || 0), sending = false;
  document.addEventListener("submit", () => { sending = true; });
  setInterval(async () => {
    if (sending) return;
    try {
      const r = await fetch(panel.dataset.url, {credentials: "same-origin"});
      if (!r.ok) return;
      panel.innerHTML = await r.text();
      const now = Number(panel.querySelector("[data-calls]")?.dataset.calls || 0);
      if (now > calls) { document.title = "(" + now + ") New floor call"; panel.querySelector("[data-calls]").classList.add("new"); }
      calls = now;
    } catch (e) { /* try again on the next round */ }
  }, Number(panel.dataset.pollMs) || 4000);
})();
