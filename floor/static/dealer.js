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
  const urls = { events: page.dataset.eventsUrl, live: page.dataset.liveUrl || page.dataset.stateUrl,
                 panel: page.dataset.panelUrl };
  const POLL_MS = 4000;
  const CONFIRM_MS = 5000;
  const HAND_SIZE = 5;
  let busy = false;

  const panel = () => document.getElementById("panel");
  const version = () => Number(panel().dataset.version);

  function say(text, kind) {
    const box = document.getElementById("say");
    if (!box) return;
    box.textContent = text || "";
    box.className = "say " + (kind || "");
    box.hidden = !text;
    if (text && kind === "refused" && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
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

  // a dealer typing into a seat menu (a newcomer's name, a buy-in) is not interrupted by a refresh:
  // the next poll after the field loses focus brings the news
  const typing = () => { const a = document.activeElement; return !!(a && a.closest && a.closest(".seat-menu form")); };

  async function poll() {
    if (busy || document.hidden || typing()) return;
    try {
      const response = await fetch(urls.live, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return;
      const data = await response.json();
      if (busy) return;
      if (data.version !== version()) {
        await loadPanel("Updated: another device logged at this table.", "info");
      } else if (data.call !== undefined && String(data.call || "") !== (panel().dataset.call || "")) {
        // the floor answered or dismissed the call (nothing logged here), or another tablet called
        await loadPanel(data.call ? "" : "The floor has answered the call.", "info");
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
    const section = picker.closest(".show, .draw, .widow-pick");
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
    chip.textContent = face(card);
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
        text += ", split: " + (escrow.length ? escrow.map(face).join(" ") + " in escrow" : "pick the escrowed cards");
      }
      button.textContent = text;
    } else if (button.dataset.action === "widow") {
      const cards = picks(section.querySelector(".picker"));
      button.disabled = cards.length !== 1;
      button.textContent = cards.length === 1 ? "Widow card " + cards[0] : (cards.length ? "One card only" : "Pick the widow card");
    } else {
      const cards = picks(section.querySelector(".picker"));
      disarm(button);  // the cards changed: a confirmation given for other cards no longer holds
      button.disabled = cards.length === 0;
      button.textContent = cards.length ? "Show " + cards.map(face).join(" ") : "Pick the cards shown";
      // H6: a hand of other than five cards is dead; the dealer confirms it, as for muck and undo
      button.toggleAttribute("data-confirm", cards.length > 0 && cards.length !== HAND_SIZE);
      if (button.hasAttribute("data-confirm")) {
        button.dataset.confirmText = cards.length + " cards, not " + HAND_SIZE + ": a dead hand (H6). Tap again to show";
      }
    }
  }

  // a card as the picker shows it: rank and suit symbol ("T♥"), the joker spelled out
  const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  function face(card) {
    return card === "Jk" ? "Joker" : card.slice(0, -1) + (SUITS[card.slice(-1)] || card.slice(-1));
  }

  function disarm(button) {
    if (!button.dataset.armed) return;
    delete button.dataset.armed;
    button.classList.remove("armed");
  }

  function actionEvent(button) {
    const section = button.closest(".show, .draw, .widow-pick");
    if (button.dataset.action === "widow") return { type: "widow", card: picks(section.querySelector(".picker"))[0] };
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
    const armed = String(Date.now());
    button.dataset.armed = armed;
    button.dataset.label = button.textContent;
    button.textContent = button.dataset.confirmText || "Tap again to confirm: " + button.dataset.label;
    button.classList.add("armed");
    setTimeout(function () {
      if (!button.isConnected || button.dataset.armed !== armed) return;
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
    if (target.dataset.action) {
      if (target.hasAttribute("data-confirm") && !confirmed(target)) return;
      return send(actionEvent(target));
    }
    if (target.dataset.event) {
      if (target.hasAttribute("data-confirm") && !confirmed(target)) return;
      return send(JSON.parse(target.dataset.event));
    }
  });

  // ---- a seat's menu between deals: a form adds its fields to the event it carries (sit, rebuy,
  // change seat); whether the event is allowed is the engine's answer, shown as it words it
  const NUMBERS = ["chips", "amount", "to"];
  page.addEventListener("submit", function (e) {
    const form = e.target.closest("form[data-event]");
    if (!form || !page.contains(form)) return;
    e.preventDefault();
    const event = JSON.parse(form.dataset.event);
    Array.from(form.elements).forEach(function (field) {
      if (!field.name) return;
      event[field.name] = NUMBERS.includes(field.name) ? Number(field.value) : field.value.trim();
    });
    send(event);
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
