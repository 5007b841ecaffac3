// The floor overview keeps itself up to date: it polls /floor/live (a digest of what the page
// shows and the open calls) every few seconds; when the digest moves it reloads the page's live
// part in place, and a call it has not seen before is announced: a banner, the row lit, the tab's
// title, and a short beep when the floor person turned the sound on (browsers allow sound only
// after a tap, hence the button). No game rule here; the server renders everything.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const url = live.dataset.liveUrl;
  const banner = document.getElementById("new-call");
  const soundButton = document.getElementById("sound");
  const title = document.title;
  let stamp = live.dataset.stamp;
  let seconds = 3;
  let audio = null;
  const seen = new Set(Array.from(live.querySelectorAll("[data-call]")).map((row) => row.dataset.call));
  // A tap in progress wins over a refresh: the live part is not replaced within two seconds of a
  // touch, while a field in it is being filled, or once a form in it was sent (the next poll does it).
  let touched = 0;
  live.addEventListener("pointerdown", function () { touched = Date.now(); }, true);
  live.addEventListener("submit", function () { touched = Infinity; }, true);
  function busy() {
    const field = document.activeElement;
    return Date.now() - touched < 2000 || (live.contains(field) && field.matches("input, select, textarea"));
  }

  // ---- sound: off until tapped on; remembered on this device
  function setSound(on) {
    soundButton.setAttribute("aria-pressed", String(on));
    soundButton.textContent = on ? "Sound on" : "Sound off";
    try { localStorage.setItem("floor-sound", on ? "1" : "0"); } catch (err) { /* private mode */ }
    if (on && !audio && window.AudioContext) audio = new AudioContext();
  }
  soundButton.hidden = false;
  soundButton.addEventListener("click", function () { setSound(soundButton.getAttribute("aria-pressed") !== "true"); });
  try { if (localStorage.getItem("floor-sound") === "1") setSound(true); } catch (err) { /* private mode */ }

  function beep() {
    if (!audio || soundButton.getAttribute("aria-pressed") !== "true") return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.15;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  }

  function announce(calls) {
    banner.textContent = (calls.length === 1 ? "New call: " : "New calls: ") + calls.map((c) => c.words).join(" · ");
    banner.hidden = false;
    calls.forEach(function (c) {
      const row = live.querySelector('[data-call="' + c.id + '"]');
      if (row) row.classList.add("new-call-row");
    });
    document.title = "(" + calls.length + ") " + title;
    beep();
  }

  async function reload() {
    const page = new URL(window.location.href);
    page.searchParams.set("live", "1");  // the server keeps flashed messages for the next full page
    const response = await fetch(page, { credentials: "same-origin" });
    if (!response.ok || response.redirected) return false;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.getElementById("live");
    if (!fresh) return false;
    live.innerHTML = fresh.innerHTML;
    stamp = fresh.dataset.stamp;
    if (window.labelTables) window.labelTables(live);
    return true;
  }

  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.status === 401 || response.redirected) { window.location.reload(); return; }
      if (!response.ok) return;
      const data = await response.json();
      seconds = data.poll_seconds || seconds;
      if (data.stamp === stamp || busy()) return;
      if (!(await reload())) return;
      const fresh = data.calls.filter((c) => !seen.has(String(c.id)));
      data.calls.forEach((c) => seen.add(String(c.id)));
      if (fresh.length) announce(fresh);
    } catch (err) { /* offline for a moment: the next poll tries again */ }
    finally { setTimeout(poll, seconds * 1000); }
  }

  // the title goes back once the floor person looks at the page
  document.addEventListener("visibilitychange", function () { if (!document.hidden) document.title = title; });
  window.addEventListener("focus", function () { document.title = title; });
  setTimeout(poll, seconds * 1000);
})();
