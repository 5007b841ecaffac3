// The taps a tablet keeps until the server has answered them (DESIGN part four "A tap is sent
// once"), for the jackpot tablet (dealer.js) and the banked one (banked.js).
//
// Every tap gets an id (a UUID) when the dealer taps, and is written to the tablet's storage
// (localStorage: it outlives a reload, a closed tab and a login that ended, and a second tab of
// the same table sees it) BEFORE it is posted. It leaves the storage only once the server has
// answered it. A tap whose answer never came (the network dropped, the page was reloaded while
// it was on its way) is therefore still there, and is sent again with the same id: the server
// answers a tap it already logged with the entry it logged (200), so it is logged once and the
// tablet says "logged". Plain JS, no build step.
"use strict";
(function () {
  // A version 4 UUID. crypto.randomUUID exists only on HTTPS or localhost; a card room's tablets
  // may reach the server by a LAN address over HTTP, where crypto.getRandomValues still works.
  function newId() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    const b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // This page's mark on the taps it is sending now: a tap in storage without this page's mark
  // (written by a page since reloaded, or by another tab) is one whose answer nobody is waiting for.
  const PAGE = newId();

  // The taps kept under `key`, oldest first: read, written, and this page's own marks.
  function TapQueue(key, onChange) {
    let memory = [];  // private mode, storage full: the taps live as long as the page
    function read() {
      try {
        const q = JSON.parse(localStorage.getItem(key) || "[]");
        if (Array.isArray(q) && (q.length || !memory.length)) return q;
      } catch (err) { /* storage unreadable: the page's own copy */ }
      return memory.slice();
    }
    function write(queue) {
      memory = queue.slice();
      try {
        if (queue.length) localStorage.setItem(key, JSON.stringify(queue));
        else localStorage.removeItem(key);
      } catch (err) { /* private mode: kept in memory */ }
      if (onChange) onChange();
    }
    return {
      read: read,
      write: write,
      // the taps waiting to be sent: all but the one this page is sending now
      waiting: () => read().filter((t) => t.sending !== PAGE),
      // a tap added at the end, marked as this page's when it is being sent now
      add: function (tap, sendingNow) {
        const queue = read();
        tap.tap_id = tap.tap_id || newId();
        if (sendingNow) tap.sending = PAGE; else delete tap.sending;
        queue.push(tap);
        write(queue);
        return tap;
      },
      // the server answered this tap: it leaves the tablet
      done: function (tapId) { write(read().filter((t) => t.tap_id !== tapId)); },
      // its answer did not come: it waits with the others, to be sent again with the same id
      unsent: function (tapId) {
        write(read().map((t) => { if (t.tap_id === tapId) delete t.sending; return t; }));
      },
    };
  }

  TapQueue.newId = newId;
  window.TapQueue = TapQueue;
})();
