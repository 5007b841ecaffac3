"use strict";
// The server keeps the clock (it is computed from the recorded moves in the database): the wall asks
// it every few seconds and counts down on its own in between, so it never drifts far and survives a
// restart. Times of day come from the server in the room's zone (with their offset): the wall shows
// the room's hour and minute whatever the zone of the screen showing it.
(function () {
  const wall = document.querySelector(".wall");
  let info = JSON.parse(document.getElementById("clock-info").textContent), got = Date.now();
  const $ = (id) => document.getElementById(id);
  const mmss = (s) => Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  const hmm = (s) => s >= 3600 ? Math.floor(s / 3600) + ":" + String(Math.floor(s / 60) % 60).padStart(2, "0") + ":" +
    String(s % 60).padStart(2, "0") : mmss(s);
  const stakes = (x) => "ante " + x.ante + " · bets " + x.small_bet + "/" + x.big_bet;
  const num = (n) => Number(n).toLocaleString("en");
  // "2026-11-23T11:20:00-08:00" -> "11:20" (the room's clock, as the server wrote it)
  const clockText = (iso) => iso ? iso.slice(11, 16) : "";
  const ordinal = (n) => n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th");
  function show() {
    const gone = info.running ? Math.floor((Date.now() - got) / 1000) : 0;
    const left = Math.max(0, info.seconds_left - gone);
    $("now").textContent = clockText(info.now);
    $("level").textContent = info.on_break ? "Break" : "Level " + info.level;
    $("time").textContent = mmss(left);
    $("time").className = info.running ? "" : "paused";
    // after a deal the event is over: the clock shows no time left to play
    $("state").textContent = info.ended ? "Ended with a deal" : !info.started ? "Not started" :
      info.hand_for_hand ? "Hand for hand" : (info.running ? "" : "Paused");
    $("stakes").textContent = info.on_break ? "" : stakes(info);
    $("next").textContent = !info.next ? "Last level" :
      "Next: " + (info.next.break ? "break, " + info.next.minutes + " min" : stakes(info.next));
    $("ends").textContent = info.level_ends_at ? (info.on_break ? "Play resumes at " : "Level ends at ") +
      clockText(info.level_ends_at) : "";
    $("players_left").textContent = info.players_left + " / " + info.entries;
    // null while a table's record is broken: the figure is withheld, the clock runs on
    $("average_stack").textContent = info.average_stack === null ? "withheld" : num(info.average_stack);
    $("chips_in_play").textContent = info.chips_in_play === null ? "withheld" : num(info.chips_in_play);
    $("prize_pool").textContent = num(info.prize_pool);
    $("next_break").textContent = info.next_break_seconds === null ? "none" :
      info.on_break ? "now" : hmm(Math.max(0, info.next_break_seconds - gone));
    $("late_registration").textContent = info.late_registration_open ? "open" : "closed";
    if (info.ended) {  // nothing is played any more: no level, no stakes, no break to come
      $("time").textContent = "Over"; $("level").textContent = "Deal";
      for (const id of ["ends", "next", "stakes"]) $(id).textContent = "";
      $("players_left").textContent = info.players_left + " in the deal";
    }
    const ladder = $("payouts");
    const items = info.payouts.map((p) => ordinal(p.place) + " " + num(p.prize));
    if (ladder.dataset.items !== items.join("|")) {
      ladder.replaceChildren(...items.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
      ladder.dataset.items = items.join("|");
    }
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
