// The player picker (issue 31): an input marked data-player-picker finds players by name or card
// number as it is typed (GET /api/players?q=) and offers them in its datalist; picking one names the
// record in the form's hidden player_id (the server writes the record's name into the log). A floor
// person's "New player" button (data-player-create) creates the record on the spot (POST
// /api/players) from the typed name and an optional card number. Typing a name and picking nothing
// sends the name: at a seat or an entry the server links it to the one player of that name, or
// makes a new record; in the promotions' award (/floor/promotions) it is the name as seated.
(function () {
  "use strict";
  const token = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const label = (p) => p.name + (p.card ? " · card " + p.card : "") + " · #" + p.id + (p.banned ? " · BANNED" : "");
  const timers = new WeakMap();

  function parts(input) {
    const form = input.closest("form");
    return {form: form, id: form.querySelector("input[data-player-id]"),
            list: document.getElementById(input.getAttribute("list")),
            said: form.querySelector("[data-player-said]")};
  }

  function choose(input, player) {
    const p = parts(input);
    p.id.value = player ? String(player.id) : "";
    // named only once chosen: an empty player_id is no field of the event
    if (player) p.id.setAttribute("name", "player_id"); else p.id.removeAttribute("name");
    if (p.said) p.said.textContent = player ? (player.banned ? "Banned: " + player.banned_reason : "Player #" + player.id) : "";
    // what the input showed when this record was chosen: a search that fires later for the same
    // text (typed before "New player", its timer still running) keeps the record
    input.dataset.chosen = player ? input.value : "";
  }

  async function search(input) {
    const q = input.value.trim();
    const p = parts(input);
    if (p.id.value && input.dataset.chosen === input.value) return;
    const known = Array.from(p.list.options).find((o) => o.value === input.value);
    if (known) { choose(input, JSON.parse(known.dataset.player)); return; }
    choose(input, null);
    if (q.length < 2) return;
    const answer = await fetch("/api/players?q=" + encodeURIComponent(q), {credentials: "same-origin"});
    if (!answer.ok) return;
    const found = await answer.json();
    p.list.replaceChildren(...found.map(function (player) {
      const option = document.createElement("option");
      option.value = label(player);
      option.dataset.player = JSON.stringify(player);
      return option;
    }));
  }

  document.addEventListener("input", function (e) {
    const input = e.target.closest("input[data-player-picker]");
    if (!input) return;
    clearTimeout(timers.get(input));
    // A suggestion taken, or the text changed from the one chosen: the form knows it at once, not
    // after the search's 200 ms. A tap on the form's button may follow at once (a floor person
    // takes "Bob · card 42 · #7" and pays): with the id still unset the form sent the label as a
    // name, and a seat made a new player named by it.
    const known = Array.from(parts(input).list.options).find((o) => o.value === input.value);
    if (known) { choose(input, JSON.parse(known.dataset.player)); return; }
    if (input.dataset.chosen !== input.value) choose(input, null);
    timers.set(input, setTimeout(() => search(input), 200));
  });

  document.addEventListener("click", async function (e) {
    const button = e.target.closest("button[data-player-create]");
    if (!button) return;
    e.preventDefault();
    const input = button.closest("form").querySelector("input[data-player-picker]");
    const name = input.value.split(" · ")[0].trim();
    if (!name) { input.focus(); return; }
    const card = window.prompt("Card number of " + name + " (leave empty for none)", "") || "";
    const answer = await fetch("/api/players", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": token()},
      body: JSON.stringify({name: name, card: card.trim() || null}),
    });
    const body = await answer.json();
    const p = parts(input);
    if (!answer.ok) { if (p.said) p.said.textContent = body.message || "Not created"; return; }
    clearTimeout(timers.get(input));  // the name's search, typed before the tap, is answered now
    input.value = label(body);
    choose(input, body);
  });
})();
