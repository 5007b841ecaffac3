// The banked tablet: a card picker for the field being filled (the deal's boxes, a box's exchange,
// the dealer's cards and draw), and a second tap for what costs a box its ante or withdraws an entry.
// The fields stay plain text fields (typing works, and the page works without this script); the
// rules check every card on the server and the page shows their refusal. Plain JS, no build step.
"use strict";
(function () {
  const table = document.getElementById("table");
  const picker = document.getElementById("picker");
  const CONFIRM_MS = 5000;

  // ---- the card picker
  if (table && picker) {
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
      // the picker sits right under the form being filled (a box's exchange, the deal, the dealer)
      const form = target.closest("form");
      if (form && form.nextElementSibling !== picker) form.after(picker);
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

  // ---- taps that wait: offline, or after the login ended (as on the jackpot tablet, dealer.js).
  // A tap is the page's form sent by fetch (?tap=1: answered in JSON). When it cannot be sent it is
  // kept on the tablet, in order, with the version the table had (the k-th waiting tap expects the
  // version after the k-1 before it), and sent when the network or the login is back: logged once,
  // or named as NOT logged with the reason. Only the one tablet page's own forms are kept.
  if (table) {
    const KEY = "banked-taps-" + table.dataset.table;
    const who = table.dataset.user || "";
    let offline = navigator.onLine === false;
    let loggedOut = false;
    let flushing = false;

    const read = () => { try { const q = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(q) ? q : []; } catch (e) { return []; } };
    const write = (q) => { try { if (q.length) localStorage.setItem(KEY, JSON.stringify(q)); else localStorage.removeItem(KEY); } catch (e) { /* private mode */ } show(); };
    const esc = (t) => { const d = document.createElement("span"); d.textContent = t; return d.innerHTML; };

    function show(extra) {
      const box = document.getElementById("net");
      const waiting = read();
      let html = "";
      if (loggedOut) {
        html += "<p><strong>Your login has ended.</strong> " + (waiting.length ? "What you tapped is NOT logged yet: it waits on this tablet. " : "") +
          'Log in again' + (waiting.length ? " and it is sent then, if the table has not changed." : ".") + "</p>" +
          '<p><a class="button primary" id="login-again" href="' + esc(table.dataset.loginUrl) + '">Log in again</a></p>';
      } else if (offline) {
        html += "<p><strong>No network: this tablet is offline.</strong> Taps are kept in order on this tablet and sent when the network is back.</p>";
      }
      if (waiting.length) html += "<p>Waiting to be sent (" + waiting.length + "):</p><ol class=\"waiting\">" + waiting.map((t) => "<li>" + esc(t.label) + "</li>").join("") + "</ol>";
      if (extra) html += extra;
      box.innerHTML = html;
      box.hidden = !html;
      box.className = "net" + (offline || loggedOut ? " down" : "");
      // the next box's turn is the server's to tell: the table's buttons wait with the taps
      if (waiting.length) document.querySelectorAll("#table form button[type=submit], .corrections-bar button").forEach((b) => { b.disabled = true; });
    }

    function labelOf(form, button) {
      const box = form.querySelector("input[name=box]");
      const words = (button ? button.dataset.label || button.textContent : form.querySelector("input[name=type]").value).trim();
      return (box ? "Box " + box.value + ": " : "") + words;
    }

    const post = (action, body) => fetch(action + (action.includes("?") ? "&" : "?") + "tap=1", {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" } });

    function keep(form, button) {
      const waiting = read();
      const data = new URLSearchParams(new FormData(form));
      const version = Number(table.dataset.version) + waiting.length;
      data.set("version", String(version));
      const body = data.toString();
      if (waiting.length && waiting[waiting.length - 1].body === body) return;  // a double tap: kept once
      waiting.push({ action: form.action, body: body, label: labelOf(form, button), user: who });
      write(waiting);
    }

    async function sendNow(form, button) {
      let response;
      try {
        response = await post(form.action, new URLSearchParams(new FormData(form)).toString());
      } catch (err) {
        offline = true; keep(form, button); return;
      }
      if (response.type === "opaqueredirect" || response.status === 401) {  // sent to the login page
        loggedOut = true; keep(form, button); return;
      }
      if (response.status !== 201) {
        let data = {};
        try { data = await response.json(); } catch (e) { /* an error page */ }
        sessionStorage.setItem(KEY + "-say", "Not logged: " + (data.error || "refused (" + response.status + ")") + ".");
      }
      window.location.reload();
    }

    async function flush() {
      if (flushing || offline) return;
      let waiting = read();
      if (!waiting.length) return;
      const others = waiting.filter((t) => t.user && who && t.user !== who);
      if (others.length) {
        write([]);
        sessionStorage.setItem(KEY + "-say", others.length + " tap(s) of " + others[0].user + " were NOT logged: they waited for " +
                               others[0].user + "'s login. Check the table and tap again what is still right.");
        window.location.reload();
        return;
      }
      flushing = true;
      const sent = [];
      let problem = "";
      try {
        while (waiting.length) {
          let response;
          // the form's token is this page's (a login since the tap made a new session, and a new token)
          const body = new URLSearchParams(waiting[0].body);
          body.set("csrf_token", document.querySelector('meta[name="csrf-token"]').content);
          try { response = await post(waiting[0].action, body.toString()); } catch (err) { offline = true; show(); return; }
          if (response.type === "opaqueredirect" || response.status === 401) { loggedOut = true; show(); return; }
          if (response.status === 201) { sent.push(waiting[0].label); waiting = waiting.slice(1); write(waiting); continue; }
          let data = {};
          try { data = await response.json(); } catch (e) { /* an error page */ }
          const why = response.status === 409 ? "another device logged at this table while these taps waited"
            : (data.error || "refused (" + response.status + ")");
          problem = "NOT logged: " + waiting.map((t) => t.label).join("; ") + ". Why: " + why + ". The table is as it is now: check it, and tap again what is still right.";
          write([]);
          break;
        }
      } finally { flushing = false; }
      sessionStorage.setItem(KEY + "-say", (sent.length ? "Sent now (it waited on this tablet): " + sent.join("; ") + ". " : "") + problem);
      window.location.reload();
    }

    document.addEventListener("submit", function (e) {
      const form = e.target;
      if (!table.contains(form) && !form.closest(".corrections-bar")) return;
      if (!/\/events$/.test(new URL(form.action).pathname)) return;
      e.preventDefault();
      if (form.dataset.sent) return;  // one tap, one send
      form.dataset.sent = "1";
      const button = e.submitter || form.querySelector("button[type=submit]");
      if (offline || loggedOut || read().length) { keep(form, button); if (!offline && !loggedOut) flush(); return; }
      sendNow(form, button);
    });
    window.addEventListener("offline", function () { offline = true; show(); });
    window.addEventListener("online", function () { offline = false; show(); flush(); });
    setInterval(function () { if (read().length && !loggedOut) { offline = false; flush(); } }, 5000);

    const said = sessionStorage.getItem(KEY + "-say");
    if (said) {
      sessionStorage.removeItem(KEY + "-say");
      const box = document.createElement("div");
      const refused = /NOT logged|Not logged/.test(said);
      box.className = "flash " + (refused ? "error" : "success");
      box.id = refused ? "refusal" : "said";  // where the page puts the rules' refusal
      box.setAttribute("role", "alert");
      box.textContent = said;
      table.before(box);
    }
    show();
    if (read().length && !offline) flush();
  }

  // ---- two taps for what cannot simply be taken back (a fold, an undo); a double tap is one tap
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest("button[data-confirm]");
    if (!button) return;
    if (e.detail > 1) { e.preventDefault(); return; }
    if (button.dataset.armed) return; // the second tap: the form is sent
    e.preventDefault();
    const armed = String(Date.now());
    button.dataset.armed = armed;
    button.dataset.label = button.textContent;
    button.textContent = button.dataset.confirm;
    button.classList.add("armed");
    setTimeout(function () {
      if (!button.isConnected || button.dataset.armed !== armed) return;
      delete button.dataset.armed;
      button.textContent = button.dataset.label;
      button.classList.remove("armed");
    }, CONFIRM_MS);
  });
})();
