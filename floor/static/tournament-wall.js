"use strict";
// The server keeps the clock (it is computed from the director's moves): the wall asks it every few
// seconds and counts down on its own in between, so it never drifts far and survives a restart.
(function () {
  const wall = document.querySelector(".wall");
  let info = JSON.parse(document.getElementById("clock-info").textContent), got = Date.now();
  const $ = (id) => document.getElementById(id);
  const mmss = (s) => Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  const stakes = (x) => "ante " + x.ante + " · bets " + x.small_bet + "/" + x.big_bet;
  function show() {
    let left = info.seconds_left;
    if (info.running) left = Math.max(0, left - Math.floor((Date.now() - got) / 1000));
    $("level").textContent = info.on_break ? "Break" : "Level " + info.level;
    $("time").textContent = mmss(left);
    $("time").className = info.running ? "" : "paused";
    $("state").textContent = !info.started ? "Not started" : (info.running ? "" : "Paused");
    $("stakes").textContent = info.on_break ? "" : stakes(info);
    $("next").textContent = !info.next ? "Last level" :
      "Next: " + (info.next.break ? "break, " + info.next.minutes + " min" : stakes(info.next));
    $("players_left").textContent = info.players_left + " / " + info.entries;
    $("average_stack").textContent = info.average_stack.toLocaleString("en");
    $("prize_pool").textContent = info.prize_pool.toLocaleString("en");
  }
  async function poll() {
    try {
      const r = await fetch(wall.dataset.url, {headers: {"Accept": "application/json"}, credentials: "same-origin"});
      if (r.ok) { info = await r.json(); got = Date.now(); show(); }
    } catch (e) { /* the next poll tries again */ }
  }
  show();
  setInterval(show, 250);
  setInterval(poll, Number(wall.dataset.pollMs) || 3000);
})();
