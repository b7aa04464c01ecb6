// The table's clock on every phone, ticked here from what the server rendered: no request
// is made for the time (docs/architecture.md, "Time at the table"). An element with
// data-tick="up|down" shows data-base seconds at data-since (ms since the epoch, by the
// server's clock; #turn-clock's data-now is the server's time when it rendered), counting
// on from there; without data-since it stands still (a break). Also: the turn timer's alarm
// on the phone whose turn it is, and keeping the screen awake.
(function () {
  "use strict";

  function duration(seconds) {
    var whole = Math.floor(Math.abs(seconds)), h = Math.floor(whole / 3600);
    var m = Math.floor((whole % 3600) / 60), s = whole % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }

  // The server's clock as this phone reckons it: the phone's own may be minutes off.
  var skew = 0, seenNow = null;
  function serverNow() {
    var clock = document.getElementById("turn-clock");
    if (clock && clock.dataset.now !== seenNow) {
      seenNow = clock.dataset.now;
      skew = Number(seenNow) - Date.now();
    }
    return Date.now() + skew;
  }

  var alarmed = null;  // the turn whose alarm has sounded on this phone
  function tick() {
    var now = serverNow();
    document.querySelectorAll("[data-tick]").forEach(function (el) {
      if (!el.dataset.since) return;
      var passed = Math.max(0, now - Number(el.dataset.since)) / 1000;
      if (el.dataset.tick === "up") {
        var seconds = Number(el.dataset.base) + passed;
        el.textContent = duration(seconds);
        if (el.tagName === "TIME") el.setAttribute("datetime", "PT" + Math.floor(seconds) + "S");  // the machine form too
        return;
      }
      var left = Number(el.dataset.base) - passed, shown = el.querySelector(".left") || el;
      shown.textContent = left < 0 ? el.dataset.up + " · +" + duration(-left) : duration(left) + " " + el.dataset.left;
      el.classList.toggle("over", left < 0);
      if (left < 0) timeIsUp(el);
    });
  }

  // Vibrate, and beep where the phone lets a page make a sound, once per turn, on the
  // phone whose turn it is (every seated phone for a turn of the whole table).
  // The clock is the same on every phone of a view: whose turn it is names a seat ("any":
  // the whole table's), and the phone's own seat sits on its table body.
  function isMine(clock) {
    var body = document.getElementById("table-body"), turn = clock.dataset.turnSeat;
    var seat = body ? body.dataset.mySeat : "";
    return !!turn && !!seat && (turn === "any" || turn === seat);
  }

  function timeIsUp(el) {
    var clock = document.getElementById("turn-clock");
    if (!clock || !isMine(clock)) return;
    var turn = clock.dataset.turn + "/" + el.dataset.base;
    if (alarmed === turn) return;
    alarmed = turn;
    document.documentElement.dataset.alarm = turn;  // the browser tests look for it
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
    try {
      var Audio = window.AudioContext || window.webkitAudioContext, ctx = new Audio();
      var tone = ctx.createOscillator(), gain = ctx.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.2;
      tone.connect(gain).connect(ctx.destination);
      tone.start();
      tone.stop(ctx.currentTime + 0.4);
    } catch (e) { /* no sound allowed before a tap: the vibration and the text remain */ }
  }

  setInterval(tick, 500);
  document.addEventListener("htmx:afterSettle", tick);
  tick();

  // Keep the screen awake while the game runs (a toggle, on by default): the Screen Wake
  // Lock API where the browser offers it (secure pages: https, localhost), else
  // nosleep.js's silent looping video (plain http on the LAN), which must start from a tap.
  var toggle = document.getElementById("wake-toggle"), keeper = null, wanted = false;
  if (!toggle) return;
  var native = "wakeLock" in navigator, lock = null;
  toggle.hidden = false;
  document.documentElement.dataset.wakeVia = native ? "wake-lock" : (window.NoSleep ? "nosleep" : "none");

  function show(on) {
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? toggle.dataset.on : toggle.dataset.off;
    document.documentElement.dataset.awake = on ? "on" : "off";
  }
  function over() {
    return !!document.querySelector("#live .notice.done");
  }
  function keepAwake() {
    if (!wanted || over()) return release();
    if (native) {
      if (lock || document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        show(true);
        l.addEventListener("release", function () { lock = null; if (!wanted) show(false); });
      }).catch(function () { show(false); });
    } else if (window.NoSleep) {
      keeper = keeper || new window.NoSleep();
      if (keeper.isEnabled) return show(true);
      keeper.enable().then(function () { show(true); }).catch(function () { show(false); });
    }
  }
  function release() {
    if (lock) { lock.release(); lock = null; }
    if (keeper && keeper.isEnabled) keeper.disable();
    show(false);
  }
  wanted = localStorage.getItem("tablescribe.awake") !== "off";
  show(false);
  toggle.addEventListener("click", function () {
    wanted = toggle.getAttribute("aria-pressed") !== "true";
    localStorage.setItem("tablescribe.awake", wanted ? "on" : "off");
    if (wanted) keepAwake(); else release();
  });
  // The video fallback may only start from a tap: the first tap anywhere starts it.
  document.addEventListener("click", function (evt) { if (evt.target !== toggle) keepAwake(); }, true);
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSettle", function () { if (over()) release(); });
  keepAwake();
})();
