// A card picker for the text fields of cards on a page (the banked tablet's deal, a box's exchange,
// the dealer's cards and draw; the floor's dispute walk): a tap on a card adds it to the field
// being filled (input[data-pick]: data-max cards at most, data-from the cards it may take them from,
// data-count-of the field whose count it matches), each card at most once on the page. The fields
// stay plain text fields (typing works, and the page works without this script); the rules check
// every card on the server and the page shows their refusal. Plain JS, no build step.
"use strict";
(function () {
  const picker = document.getElementById("picker");
  // ---- the card picker
  if (picker) {
    const fields = () => Array.from(document.querySelectorAll("input[data-pick]"));
    let target = null;

    const norm = (t) => (t.toLowerCase() === "jk" ? "Jk" : t.slice(0, -1).toUpperCase() + t.slice(-1).toLowerCase());
    const cardsOf = (input) => input.value.split(/[\s,]+/).filter(Boolean).map(norm);

    function maxOf(input) {
      if (input.dataset.countOf) {
        const form = input.closest("form");
        const other = form && form.querySelector('[data-field="' + input.dataset.countOf + '"]');
        if (other && cardsOf(other).length) return cardsOf(other).length;
      }
      return Number(input.dataset.max || 5);
    }

    function refresh() {
      // a card is taken once a round: seen before (the server greys it out) or in any field here
      const taken = new Set();
      fields().forEach((f) => { if (!f.dataset.from) cardsOf(f).forEach((c) => taken.add(c)); });
      const from = target && target.dataset.from ? new Set(target.dataset.from.split(/\s+/)) : null;
      const mine = target ? new Set(cardsOf(target)) : new Set();
      picker.querySelectorAll(".card[data-card]").forEach(function (b) {
        const card = b.dataset.card;
        // a box throws only its own cards; anything else is a card not seen yet this round
        b.disabled = from ? !from.has(card) || mine.has(card) : b.hasAttribute("data-seen") || taken.has(card);
        b.classList.toggle("taken", !from && taken.has(card));
      });
      if (target) {
        document.getElementById("pick-target").textContent = target.dataset.pick;
        document.getElementById("pick-count").textContent = cardsOf(target).length + " of " + maxOf(target);
      }
    }

    function aim(input) {
      if (target) target.classList.remove("picking");
      target = input;
      if (!target) { picker.hidden = true; return; }
      target.classList.add("picking");
      // the picker sits right under the form being filled (the deal, the dealer); a box's exchange
      // is filled in a narrow box, so its picker goes under the row of boxes, at the page's width
      // (inside the box its cards were squeezed to 15-20 px at 1024 and 1440 wide)
      const form = target.closest("form");
      const anchor = target.closest(".boxes") || form;
      if (anchor && !anchor.contains(picker) && anchor.nextElementSibling !== picker) anchor.after(picker);
      picker.hidden = false;
      refresh();
    }

    function next() {
      const form = target.closest("form");
      // the next field of the same form still to fill (the deal's next box); the last stays aimed
      const all = fields().filter((f) => f.closest("form") === form);
      const rest = all.slice(all.indexOf(target) + 1).filter((f) => cardsOf(f).length < maxOf(f));
      if (rest.length) aim(rest[0]);
    }

    picker.addEventListener("click", function (e) {
      const b = e.target.closest("button");
      if (!b || !target) return;
      if (b.dataset.card) {
        if (b.disabled || cardsOf(target).length >= maxOf(target)) return;
        target.value = cardsOf(target).concat(b.dataset.card).join(" ");
        if (cardsOf(target).length >= maxOf(target)) next();
      } else if (b.id === "pick-back") {
        target.value = cardsOf(target).slice(0, -1).join(" ");
      } else if (b.id === "pick-clear") {
        target.value = "";
      }
      refresh();
    });
    document.addEventListener("focusin", function (e) { if (e.target.matches && e.target.matches("input[data-pick]")) aim(e.target); });
    document.addEventListener("click", function (e) { if (e.target.matches && e.target.matches("input[data-pick]")) aim(e.target); });
    document.addEventListener("input", function (e) { if (e.target.matches && e.target.matches("input[data-pick]")) refresh(); });
    // the first field still to fill (never focused: a tablet's keyboard would cover the picker)
    const first = fields().find((f) => !f.value);
    if (first) aim(first);
  }

})();
