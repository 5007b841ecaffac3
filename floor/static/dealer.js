// The dealer's tablet: a tap is one request. The page posts the event to the API with ?panel=1
// and swaps in the panel that comes back in the same answer (201 logged, 202 reported to the
// floor, 409 another device logged first). Only an idle tablet fetches the panel on its own, when
// its poll of the table's version finds news.
// No game rule lives here: the buttons are the state's `legal` actions, rendered server-side,
// and every refusal is the engine's own message. Plain JS, no build step, no external URLs.
"use strict";
(function () {
  const page = document.getElementById("dealer");
  if (!page) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const urls = { events: page.dataset.eventsUrl, state: page.dataset.stateUrl, panel: page.dataset.panelUrl };
  const POLL_MS = 4000;
  const CONFIRM_MS = 5000;
  let busy = false;

  const panel = () => document.getElementById("panel");
  const version = () => Number(panel().dataset.version);

  function say(text, kind) {
    const box = document.getElementById("say");
    if (!box) return;
    box.textContent = text || "";
    box.className = "say " + (kind || "");
    box.hidden = !text;
  }

  function setBusy(on) {
    busy = on;
    page.classList.toggle("busy", on);
  }

  function showPanel(html, message, kind) {
    panel().outerHTML = html;
    if (message) say(message, kind);
  }

  async function loadPanel(message, kind) {
    let response;
    try {
      response = await fetch(urls.panel, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    } catch (err) {
      say("No connection: the table could not be reloaded.", "error");
      return;
    }
    if (response.redirected || response.status === 401) {
      window.location.reload(); // the session ended: the server sends the login page
      return;
    }
    if (!response.ok) {
      say("The table could not be reloaded (" + response.status + ").", "error");
      return;
    }
    const data = await response.json();
    showPanel(data.html, message, kind);
  }

  // the panel the answer to a tap carries (older servers send none: then fetch it)
  async function answerPanel(data, message, kind) {
    if (typeof data.panel === "string") showPanel(data.panel, message, kind);
    else await loadPanel(message, kind);
  }

  async function send(event) {
    if (busy) return;
    setBusy(true);
    say("", "");
    try {
      const response = await fetch(urls.events, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ event: event, expected_version: version() }),
      });
      let data = {};
      try { data = await response.json(); } catch (err) { /* an error page without JSON */ }
      if (response.status === 201) {
        await answerPanel(data);
      } else if (response.status === 202) {
        // a report only the floor may log (false openers): nothing is logged until the floor confirms
        await answerPanel(data, data.message || "Reported to the floor.", "stale");
      } else if (response.status === 409) {
        await answerPanel(data, "Another device logged first. The table is refreshed: check it, and tap again if it is still right.", "stale");
      } else if (response.status === 422) {
        say(data.message || "The rules refused that.", "refused");
      } else if (response.status === 401) {
        // the login ended: say that the tap was NOT logged (the server's words), then log in again
        say(data.message || "Your login has ended, so this was NOT logged. Log in again and tap again.", "error");
        page.classList.add("logged-out");
      } else {
        say((data.message || "Not logged") + " (" + response.status + ")", "error");
      }
    } catch (err) {
      say("No connection: nothing was logged. Tap again when the network is back.", "error");
    } finally {
      setBusy(false);
    }
  }

  async function poll() {
    if (busy || document.hidden) return;
    try {
      const response = await fetch(urls.state, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return;
      const data = await response.json();
      if (!busy && data.version !== version()) {
        await loadPanel("Updated: another device logged at this table.", "info");
      }
    } catch (err) { /* offline for a moment: the next poll tries again */ }
  }

  // ---- card pickers: each card at most once
  function picks(picker) {
    return Array.from(picker.querySelectorAll(".tray [data-picked]")).map((b) => b.dataset.picked);
  }

  function refreshPicker(picker) {
    const tray = picker.querySelector(".tray");
    tray.querySelector(".empty").hidden = tray.querySelectorAll("[data-picked]").length > 0;
    const section = picker.closest(".show, .draw");
    if (section) updateAction(section);
  }

  function pickCard(button) {
    const picker = button.closest(".picker");
    const tray = picker.querySelector(".tray");
    const card = button.dataset.card;
    if (button.disabled || tray.querySelector('[data-picked="' + card + '"]')) return;
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "picked " + button.className.replace("card", "").trim();
    chip.dataset.picked = card;
    chip.setAttribute("aria-label", "Put back " + card);
    chip.textContent = card;
    tray.appendChild(chip);
    button.disabled = true;
    button.classList.add("taken");
    refreshPicker(picker);
  }

  function unpickCard(chip) {
    const picker = chip.closest(".picker");
    const card = picker.querySelector('.card[data-card="' + chip.dataset.picked + '"]');
    if (card) { card.disabled = false; card.classList.remove("taken"); }
    chip.remove();
    refreshPicker(picker);
  }

  // ---- the draw and the show build their event from the pickers
  function updateAction(section) {
    const button = section.querySelector("[data-action]");
    if (!button) return;
    if (button.dataset.action === "draw") {
      const chosen = section.querySelector(".count[aria-pressed=true]");
      const split = section.querySelector("[data-split]");
      button.disabled = !chosen;
      if (!chosen) { button.textContent = "Pick a count"; return; }
      const n = Number(chosen.dataset.count);
      let text = n === 0 ? "Stands pat" : "Draws " + n;
      if (split && split.checked) {
        const escrow = picks(section.querySelector(".picker"));
        text += ", split: " + (escrow.length ? escrow.join(" ") + " in escrow" : "pick the escrowed cards");
      }
      button.textContent = text;
    } else {
      const cards = picks(section.querySelector(".picker"));
      button.disabled = cards.length === 0;
      button.textContent = cards.length ? "Show " + cards.join(" ") : "Pick the cards shown";
    }
  }

  function actionEvent(button) {
    const section = button.closest(".show, .draw");
    const seat = Number(section.dataset.seat);
    if (button.dataset.action === "draw") {
      const chosen = section.querySelector(".count[aria-pressed=true]");
      const event = { type: "draw", seat: seat, count: Number(chosen.dataset.count) };
      const split = section.querySelector("[data-split]");
      if (split && split.checked) {
        event.split = true;
        event.escrow = picks(section.querySelector(".picker"));
      }
      return event;
    }
    return { type: "show", seat: seat, cards: picks(section.querySelector(".picker")) };
  }

  // ---- two taps for what cannot simply be taken back
  function confirmed(button) {
    if (button.dataset.armed) return true;
    button.dataset.armed = "1";
    button.dataset.label = button.textContent;
    button.textContent = "Tap again to confirm: " + button.dataset.label;
    button.classList.add("armed");
    setTimeout(function () {
      if (!button.isConnected) return;
      delete button.dataset.armed;
      button.textContent = button.dataset.label;
      button.classList.remove("armed");
    }, CONFIRM_MS);
    return false;
  }

  page.addEventListener("click", function (e) {
    const target = e.target.closest("button");
    if (!target || !page.contains(target) || target.disabled) return;
    if (target.dataset.card) return pickCard(target);
    if (target.dataset.picked) return unpickCard(target);
    if (target.dataset.count !== undefined) {
      const section = target.closest(".draw");
      section.querySelectorAll(".count").forEach((b) => b.setAttribute("aria-pressed", String(b === target)));
      return updateAction(section);
    }
    if (target.dataset.action) return send(actionEvent(target));
    if (target.dataset.event) {
      if (target.hasAttribute("data-confirm") && !confirmed(target)) return;
      return send(JSON.parse(target.dataset.event));
    }
  });

  page.addEventListener("change", function (e) {
    if (!e.target.matches("[data-split]")) return;
    const section = e.target.closest(".draw");
    section.querySelector(".escrow-pick").hidden = !e.target.checked;
    updateAction(section);
  });

  setInterval(poll, POLL_MS);
  window.addEventListener("focus", poll);
  document.addEventListener("visibilitychange", poll);
})();
