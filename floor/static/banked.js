// The banked tablet: its taps kept until the server answers them (with tapqueue.js), and a second
// tap for what costs a box its ante or withdraws an entry. The card picker for the fields being
// filled is cardpicker.js. Plain JS, no build step.
"use strict";
(function () {
  const table = document.getElementById("table");
  const CONFIRM_MS = 5000;

  // ---- taps that wait: offline, or after the login ended, or whose answer never came (as on the
  // jackpot tablet, dealer.js, with tapqueue.js). A tap is the page's form sent by fetch (?tap=1:
  // answered in JSON), with its tap id; it is kept on the tablet from the tap until the server
  // answers, in order, with the version the table had (the k-th waiting tap expects the version
  // after the k-1 before it), and sent when the network or the login is back: logged once (a tap
  // the server had logged already is answered with its entry), or named as NOT logged with the
  // reason. Only the one tablet page's own forms are kept.
  if (table) {
    const KEY = "banked-taps-" + table.dataset.table;
    const who = table.dataset.user || "";
    let offline = navigator.onLine === false;
    let loggedOut = false;
    let flushing = false;

    const taps = window.TapQueue(KEY, () => show());
    const read = taps.waiting;
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

    // the form as the tap sends it: its fields, the version it expects, and the tap's id
    function tapOf(form, button, waiting) {
      const data = new URLSearchParams(new FormData(form));
      data.set("version", String(Number(table.dataset.version) + waiting));
      const id = window.TapQueue.newId();
      data.set("tap_id", id);
      return { action: form.action, body: data.toString(), label: labelOf(form, button), user: who, tap_id: id };
    }

    const withoutId = (body) => { const d = new URLSearchParams(body); d.delete("tap_id"); return d.toString(); };

    function keep(form, button) {
      const waiting = read();
      const tap = tapOf(form, button, waiting.length);
      if (waiting.length && withoutId(waiting[waiting.length - 1].body) === withoutId(tap.body)) return;  // a double tap: kept once
      taps.add(tap, false);
    }

    async function sendNow(form, button) {
      // kept before it is sent: should its answer never come, it is sent again with the same id
      const tap = taps.add(tapOf(form, button, 0), true);
      let response;
      try {
        response = await post(tap.action, tap.body);
      } catch (err) {
        offline = true; taps.unsent(tap.tap_id); show(); return;
      }
      if (response.type === "opaqueredirect" || response.status === 401) {  // sent to the login page
        loggedOut = true; taps.unsent(tap.tap_id); show(); return;
      }
      taps.done(tap.tap_id);
      if (response.status === 200) {
        sessionStorage.setItem(KEY + "-say", "Logged once: that tap had reached the table before.");
      } else if (response.status !== 201) {
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
        forget(waiting);
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
          if (response.status === 201 || response.status === 200) {
            // 200: the tap had reached the table before (its answer was lost): logged once, then
            sent.push(waiting[0].label + (response.status === 200 ? " (it had reached the table before: logged once)" : ""));
            taps.done(waiting[0].tap_id); waiting = waiting.slice(1); continue;
          }
          let data = {};
          try { data = await response.json(); } catch (e) { /* an error page */ }
          const why = response.status === 409 ? "another device logged at this table while these taps waited"
            : (data.error || "refused (" + response.status + ")");
          problem = "NOT logged: " + waiting.map((t) => t.label).join("; ") + ". Why: " + why + ". The table is as it is now: check it, and tap again what is still right.";
          forget(waiting);
          break;
        }
      } finally { flushing = false; }
      sessionStorage.setItem(KEY + "-say", (sent.length ? "Sent now (it waited on this tablet): " + sent.join("; ") + ". " : "") + problem);
      window.location.reload();
    }

    // taps named as NOT logged leave the tablet (the dealer taps again what is still right)
    function forget(gone) {
      const ids = new Set(gone.map((t) => t.tap_id));
      taps.write(taps.read().filter((t) => !ids.has(t.tap_id)));
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
