// The dealer's tablet: a tap is one request. The page posts the event to the tablet's own endpoint
// (data-events-url: POST /dealer/tables/<id>/taps, the API's body and checks) and swaps in the
// panel that comes back in the same answer (201 logged, 202 reported to the floor, 409 another
// device logged first). Only an idle tablet fetches the panel on its own, when
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
    showNet(); // a panel of the table as it was keeps its turn's buttons held while taps wait
  }

  async function loadPanel(message, kind) {
    let response;
    try {
      response = await fetch(urls.panel, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    } catch (err) {
      goOffline();
      return;
    }
    if (response.redirected || response.status === 401) {
      endedLogin(); // the session ended: say so in plain words, with the way back to the login
      return;
    }
    if (!response.ok) {
      say("The table could not be reloaded (" + response.status + ").", "error");
      return;
    }
    const data = await response.json();
    showPanel(data.html, message, kind);
  }

  // the panel the answer to a tap carries (should an answer carry none, fetch it)
  async function answerPanel(data, message, kind) {
    if (typeof data.panel === "string") showPanel(data.panel, message, kind);
    else await loadPanel(message, kind);
  }

  // ---- taps that wait: offline, or after the login ended, or whose answer never came. Every tap
  // is kept on the tablet (tapqueue.js) from the moment it is tapped until the server answers it,
  // with its tap id and the version the table had when it was tapped (the k-th waiting tap
  // expects the version after the k-1 before it). Sent again, a tap the server already logged is
  // answered with its entry (200: DESIGN part four), so nothing is logged twice and nothing
  // logged is named as not logged; a tap that no longer fits the table (another device logged
  // first) is named as NOT logged.
  const who = page.dataset.user || "";
  let offline = navigator.onLine === false;
  let loggedOut = false;
  let flushing = false;
  const taps = window.TapQueue("floor-taps-" + page.dataset.table, () => showNet());
  const queue = taps.waiting;

  function escapeText(text) {
    const span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }

  // the strip above the table: offline, login ended, the taps waiting. Outside the panel, so a
  // refreshed panel keeps it.
  function showNet(extra) {
    const box = document.getElementById("net");
    if (!box) return;
    const waiting = queue();
    let html = "";
    if (loggedOut) {
      html += "<p><strong>Your login has ended.</strong> " +
        (waiting.length ? "What you tapped is NOT logged yet: it waits on this tablet. " : "") +
        "Log in again" + (waiting.length ? " and it is sent then, if the table has not changed." : ".") + "</p>" +
        '<p><a class="button primary" id="login-again" href="' + escapeText(page.dataset.loginUrl) + '">Log in again</a></p>';
    } else if (offline) {
      html += "<p><strong>No network: this tablet is offline.</strong> " +
        "Taps are kept in order on this tablet and sent when the network is back.</p>";
    }
    if (waiting.length) {
      html += '<p>Waiting to be sent (' + waiting.length + '):</p><ol class="waiting">' +
        waiting.map((t) => "<li>" + escapeText(t.label) + "</li>").join("") + "</ol>";
    }
    if (extra) html += extra;
    box.innerHTML = html;
    box.hidden = !html;
    box.className = "net" + (loggedOut || offline ? " down" : "");
    // the turn's buttons are the table as it was: after a waiting tap the next turn is the
    // server's to tell, so only the seat menus stay open until the taps are sent
    page.classList.toggle("waiting", waiting.length > 0);
    if (waiting.length) {
      page.querySelectorAll("#panel .actions button, #panel .corrections button").forEach((b) => { b.disabled = true; });
    }
  }

  function keep(event, label) {
    const waiting = queue();
    const last = waiting[waiting.length - 1];
    if (last && JSON.stringify(last.event) === JSON.stringify(event)) {
      say("That tap is already waiting to be sent: it is not kept twice.", "stale");
      return;
    }
    taps.add({ event: event, expected: version() + waiting.length, label: label || event.type, user: who }, false);
  }

  function post(tap) {
    return fetch(urls.events, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      // a tap of several events (a deal thrown in: every pass) is logged all together or not at all
      body: JSON.stringify(Object.assign(Array.isArray(tap.event) ? { events: tap.event } : { event: tap.event },
                                         { expected_version: tap.expected, tap_id: tap.tap_id })),
    });
  }

  async function jsonOf(response) {
    try { return await response.json(); } catch (err) { return {}; /* an error page without JSON */ }
  }

  function goOffline() {
    if (offline) return;
    offline = true;
    showNet();
  }

  function endedLogin() {
    loggedOut = true;
    page.classList.add("logged-out");
    say("", "");
    showNet();
  }

  async function send(event, label) {
    if (busy || flushing) return;
    if (offline || loggedOut || queue().length) {
      keep(event, label);
      if (!offline && !loggedOut) flush();
      return;
    }
    setBusy(true);
    say("", "");
    // kept before it is sent: should the answer never come (the network drops, the page is
    // reloaded), the tap is sent again with its id, and the server says whether it was logged
    const tap = taps.add({ event: event, expected: version(), label: label || event.type, user: who }, true);
    try {
      let response;
      try {
        response = await post(tap);
      } catch (err) {
        taps.unsent(tap.tap_id);
        goOffline();
        return;
      }
      if (response.status === 401) {
        // the login ended: the tap is not logged; it waits here and is sent after the login
        taps.unsent(tap.tap_id);
        endedLogin();
        return;
      }
      taps.done(tap.tap_id);
      const data = await jsonOf(response);
      if (response.status === 201) {
        await answerPanel(data);
        offerUndo(event);
      } else if (response.status === 200) {
        // sent twice (another tab, a page reloaded): logged once, the first time
        await answerPanel(data, data.message || "Logged.", "info");
      } else if (response.status === 202) {
        // a report only the floor may log (false openers): nothing is logged until the floor confirms
        await answerPanel(data, data.message || "Reported to the floor.", "stale");
      } else if (response.status === 409) {
        await answerPanel(data, "Another device logged first. The table is refreshed: check it, and tap again if it is still right.", "stale");
      } else if (response.status === 422) {
        say(data.message || "The rules refused that.", "refused");
      } else if (data.message) {
        // the server's words say why (a rotation's table, the desk's seat): the HTTP status is not the dealer's
        say("Not logged: " + data.message, "error");
      } else {
        say("Not logged (the server answered " + response.status + ")", "error");
      }
    } finally {
      setBusy(false);
    }
  }

  // an undo in place right after a costly tap (fold): the panel's own undo of the entry just logged
  function offerUndo(event) {
    if (event.type !== "fold") return;
    const undo = panel().querySelector('.corrections [data-type="void"]');
    if (!undo) return;
    const box = document.getElementById("say");
    say("Logged: seat " + event.seat + " folds.", "info");
    const again = undo.cloneNode(true);
    again.textContent = "Undo the fold";
    again.dataset.label = "Undo the fold";
    again.classList.add("undo-here");
    box.appendChild(document.createTextNode(" "));
    box.appendChild(again);
  }

  // a dealer typing into a seat menu (a newcomer's name, a buy-in) is not interrupted by a refresh:
  // the next poll after the field loses focus brings the news
  const typing = () => { const a = document.activeElement; return !!(a && a.closest && a.closest(".seat-menu form, form.amount")); };

  async function poll() {
    if (busy || document.hidden || typing()) return;
    if (flushing) return;
    try {
      let response;
      try {
        response = await fetch(urls.live, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      } catch (err) {
        goOffline(); // the next poll tries again
        return;
      }
      if (offline) { offline = false; showNet(); }
      if (response.status === 401 || response.redirected) { endedLogin(); return; }
      if (!response.ok) return;
      if (queue().length) { await flush(); return; }
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

  // the waiting taps, in order, each with its own expected version
  async function flush() {
    if (flushing || busy || offline) return;
    let waiting = queue();
    if (!waiting.length) return;
    const others = waiting.filter((t) => t.user && who && t.user !== who);
    if (others.length) {
      forget(waiting);
      say(others.length + " tap(s) made by " + others[0].user + " were NOT logged: they were waiting for " +
          others[0].user + "'s login, and " + who + " is logged in. Check the table and tap again what is still right.", "error");
      return;
    }
    flushing = true;
    setBusy(true);
    const sent = [];
    let lastPanel = null;
    let problem = "";
    try {
      while (waiting.length) {
        const tap = waiting[0];
        let response;
        try {
          response = await post(tap);
        } catch (err) {
          offline = true;
          return;
        }
        const data = await jsonOf(response);
        if (response.status === 401) {
          loggedOut = true;
          page.classList.add("logged-out");
          return;
        }
        if ([200, 201, 202].includes(response.status)) {
          // 200: the tap had reached the table before (its answer was lost): logged once, then
          const entry = data.entry ? " as entry " + data.entry.seq : "";
          sent.push(tap.label + (response.status === 202 ? " (reported to the floor)"
            : response.status === 200 ? " (it had reached the table" + entry + " before: logged once)" : ""));
          taps.done(tap.tap_id);
          waiting = waiting.slice(1);
          if (typeof data.panel === "string") lastPanel = data.panel;
          continue;
        }
        const why = response.status === 409
          ? "another device logged at this table while these taps waited, so they no longer fit the table"
          : (data.message || "refused (" + response.status + ")");
        problem = "NOT logged: " + waiting.map((t) => t.label).join("; ") + ". Why: " + why +
          ". The table below is as it is now: check it, and tap again what is still right.";
        forget(waiting);
        break;
      }
    } finally {
      flushing = false;
      setBusy(false);
      showNet();
    }
    const done = sent.length ? "Sent now (it waited on this tablet): " + sent.join("; ") + "." : "";
    if (lastPanel !== null) showPanel(lastPanel); else await loadPanel();
    if (problem) say((done ? done + " " : "") + problem, "error");
    else if (done) say(done, "info");
    showNet();
  }

  // taps named as NOT logged leave the tablet (the dealer taps again what is still right)
  function forget(gone) {
    const ids = new Set(gone.map((t) => t.tap_id));
    taps.write(taps.read().filter((t) => !ids.has(t.tap_id)));
  }

  // ---- card pickers: each card at most once
  function picks(picker) {
    return Array.from(picker.querySelectorAll(".tray [data-picked]")).map((b) => b.dataset.picked);
  }

  function refreshPicker(picker) {
    const tray = picker.querySelector(".tray");
    tray.querySelector(".empty").hidden = tray.querySelectorAll("[data-picked]").length > 0;
    const section = picker.closest(".show, .draw, .widow-pick");
    if (picker.dataset.picker === "bosnian") keepOne(picker); // one face-up card: a new pick replaces the old
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

  // the Bosnian exchange's face-up card is one card: a second pick puts the first back
  function keepOne(picker) {
    const chips = picker.querySelectorAll(".tray [data-picked]");
    if (chips.length > 1) unpickCard(chips[0]);
  }

  const pressed = (section, selector) => section.querySelector(selector + "[aria-pressed=true]");
  const pickerIn = (section, name) => section.querySelector('.picker[data-picker="' + name + '"]');
  // D16: a draw of four where the house plays the Bosnian exchange (the engine's legal says so)
  const bosnianOf = (section, n) => {
    const box = section.querySelector(".bosnian");
    return box && n === 4 ? box : null;
  };

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
      const bosnian = bosnianOf(section, n);
      if (bosnian) {
        const take = pressed(bosnian, ".take");
        const up = picks(pickerIn(bosnian, "bosnian"));
        if (!take || !up.length) {
          button.disabled = true;
          button.textContent = "Draws 4: " + (!take ? "which card is kept?" : "pick the face-up card");
          return;
        }
        text += ", keeps the face-" + take.dataset.take + " card" +
          (take.dataset.take === "up" ? " " + face(up[0]) : " (" + face(up[0]) + " dead)");
      }
      if (split && split.checked) {
        const escrow = picks(pickerIn(section, "escrow"));
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
      // H9: where the cards do not speak, the show names the declared hand
      const declaring = section.querySelector(".declare");
      const declared = declaring && pressed(declaring, ".declared");
      button.disabled = cards.length === 0 || (cards.length === HAND_SIZE && !!declaring && !declared);
      button.textContent = !cards.length ? "Pick the cards shown"
        : "Show " + cards.map(face).join(" ") + (declared ? ", declared " + declared.textContent.toLowerCase()
          : declaring && cards.length === HAND_SIZE ? ": pick the declared hand" : "");
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
      const bosnian = bosnianOf(section, event.count);
      if (bosnian) {
        event.take = pressed(bosnian, ".take").dataset.take;
        event.up = picks(pickerIn(bosnian, "bosnian"))[0];
      }
      const split = section.querySelector("[data-split]");
      if (split && split.checked) {
        event.split = true;
        event.escrow = picks(pickerIn(section, "escrow"));
      }
      return event;
    }
    const show = { type: "show", seat: seat, cards: picks(pickerIn(section, "show")) };
    const declared = section.querySelector(".declare .declared[aria-pressed=true]");
    if (declared && show.cards.length === HAND_SIZE) show.declare = declared.dataset.declare;
    return show;
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

  // what a waiting tap is called in the list: the seat and the button's words
  function labelOf(event, words) {
    const text = String(words || event.type).replace(/\s+/g, " ").trim();
    return event.seat !== undefined && !/seat/i.test(text) ? "Seat " + event.seat + ": " + text : text;
  }

  // the second tap of a double tap (the browser counts it: event.detail 2) is never taken: it
  // neither acts on the next player, whose button is now under the finger, nor confirms a muck
  const doubleTap = (e, target) => e.detail > 1 && !target.dataset.card && !target.dataset.picked && !target.dataset.step;

  // D17: the amount's steps (the least, one chip less or more, the most), within the engine's range
  function step(button) {
    const form = button.closest("form.amount");
    const input = form.querySelector("input[name=amount]");
    const low = Number(input.min), high = Number(input.max);
    const how = button.dataset.step;
    const now = Number(input.value) || low;
    input.value = String(how === "min" ? low : how === "max" ? high : Math.min(high, Math.max(low, now + Number(how))));
    amountChanged(form);
  }

  function amountChanged(form) {
    const input = form.querySelector("input[name=amount]");
    const button = form.querySelector("button[type=submit]");
    const n = Number(input.value);
    const words = { open: "Open for", bet: "Bet", raise: "Raise" }[form.dataset.kind];
    button.textContent = words + " " + (input.value === "" ? "?" : n) +
      (form.dataset.kind === "raise" && input.value !== "" ? " (to " + (Number(form.dataset.committed) + n) + ")" : "");
  }

  // a toggle of a group (the Bosnian card kept, the declared hand): one pressed at a time
  function press(target, selector) {
    const group = target.parentElement;
    group.querySelectorAll(selector).forEach((b) => b.setAttribute("aria-pressed", String(b === target)));
  }

  page.addEventListener("click", function (e) {
    const target = e.target.closest("button");
    if (!target || !page.contains(target) || target.disabled) return;
    if (target.closest("#net")) return;
    if (doubleTap(e, target)) { e.preventDefault(); return; }
    if (target.dataset.card) return pickCard(target);
    if (target.dataset.picked) return unpickCard(target);
    if (target.dataset.step) return step(target);
    if (target.dataset.count !== undefined) {
      const section = target.closest(".draw");
      section.querySelectorAll(".count").forEach((b) => b.setAttribute("aria-pressed", String(b === target)));
      const bosnian = section.querySelector(".bosnian");
      if (bosnian) bosnian.hidden = Number(target.dataset.count) !== 4;
      return updateAction(section);
    }
    if (target.dataset.take || target.dataset.declare) {
      press(target, target.dataset.take ? ".take" : ".declared");
      return updateAction(target.closest(".draw, .show"));
    }
    if (target.dataset.action) {
      if (target.hasAttribute("data-confirm") && !confirmed(target)) return;
      return send(actionEvent(target), labelOf(actionEvent(target), target.dataset.label || target.textContent));
    }
    if (target.dataset.event || target.dataset.events) {
      if (target.hasAttribute("data-confirm") && !confirmed(target)) return;
      const event = JSON.parse(target.dataset.event || target.dataset.events);
      return send(event, labelOf(event, target.dataset.label || target.textContent));
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
    const button = form.querySelector("button[type=submit]");
    // a spread amount's button already names the amount ("Raise 27 (to 27)")
    const fields = form.matches("form.amount") ? "" :
      " " + Array.from(form.elements).filter((f) => f.name).map((f) => f.value).join(" ");
    send(event, labelOf(event, (button ? button.textContent : event.type) + fields));
  });

  page.addEventListener("input", function (e) {
    if (e.target.matches("form.amount input[name=amount]")) amountChanged(e.target.closest("form.amount"));
  });

  page.addEventListener("change", function (e) {
    if (!e.target.matches("[data-split]")) return;
    const section = e.target.closest(".draw");
    section.querySelector(".escrow-pick").hidden = !e.target.checked;
    updateAction(section);
  });

  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () { offline = false; showNet(); flush(); poll(); });
  showNet();
  if (queue().length && !offline) flush(); // taps that waited for this login (or the network)

  setInterval(poll, POLL_MS);
  window.addEventListener("focus", poll);
  document.addEventListener("visibilitychange", poll);
})();
