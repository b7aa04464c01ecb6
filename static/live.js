// The table page's own script: only what htmx, its SSE extension and idiomorph do not
// do themselves (docs/architecture.md, "Live updates").
(function () {
  "use strict";

  // 1. A live update never takes what the phone is doing: the morph keeps an open
  //    <details>, typed text, ticked boxes and chosen options as the user left them.
  function userChanged(el) {
    if (el instanceof HTMLTextAreaElement) return el.value !== el.defaultValue;
    if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      return el.type !== "hidden" && el.value !== el.defaultValue;
    }
    if (el instanceof HTMLOptionElement) return el.selected !== el.defaultSelected;
    return false;
  }
  if (window.Idiomorph) {
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el) {
      if (name === "open" && el instanceof HTMLDetailsElement) return false;
      if ((name === "value" || name === "checked" || name === "selected") && userChanged(el)) return false;
      return true;
    };
  }

  // 2. Push first, poll only while no stream is open (a 503, a proxy that cuts it).
  //    <html data-live="open|closed"> says which (the tests wait for it).
  var streaming = false;
  function streamIs(open) {
    streaming = open;
    document.documentElement.dataset.live = open ? "open" : "closed";
  }
  document.addEventListener("htmx:sseOpen", function () { streamIs(true); sendPending(); });
  document.addEventListener("htmx:sseError", function () { streamIs(false); });
  document.addEventListener("htmx:sseClose", function () { streamIs(false); });
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail.elt, config = evt.detail.requestConfig;
    var asked = config && config.triggeringEvent && config.triggeringEvent.type === "refresh";
    if (elt && elt.id === "live" && streaming && !asked) evt.preventDefault();
  });

  // 2b. A push of what this phone already shows (its own write's answer had it) is dropped:
  //     morphing it again would only wipe what that answer said beside the button
  //     (the "✓ #18: Round closed" or a refusal, templates/_outcome.html).
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    var live = document.getElementById("live");
    var pushed = /data-seq="(\d+)"/.exec(evt.detail.data || "");
    if (live && pushed && Number(pushed[1]) <= Number(live.dataset.seq)) evt.preventDefault();
  });

  // 2c. A tap's answer replaces the table body (outerHTML): htmx puts the new body above
  //     the old one before removing it, and the browser's scroll anchoring followed the old
  //     one down to the end of the page, the answer ("✓ #18 …") far above the screen. The
  //     answer keeps the scroll position and brings what it says beside the button into view.
  var keptY = null;
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    keptY = target && target.id === "table-body" ? window.scrollY : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (keptY === null) return;
    window.scrollTo(0, keptY);
    keptY = null;
    var said = document.querySelector("#table-body [data-testid=ack], #table-body [data-testid=problems]");
    if (said) said.scrollIntoView({ block: "nearest" });
  });

  // 2c. While this phone's own write is on its way, pushes wait: its answer replaces the
  //     table body, and would wipe a choice made on a step that a push showed first. The
  //     answer shows every move up to its own; a later one pushed meanwhile is fetched by
  //     one poll ("refresh") once the answer has landed.
  var writing = 0, heldSeq = 0;
  function isWrite(evt) {
    var config = evt.detail.requestConfig;
    return config && config.verb === "post";
  }
  document.addEventListener("htmx:beforeSend", function (evt) { if (isWrite(evt)) writing++; });
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    var pushed = /data-seq="(\d+)"/.exec(evt.detail.data || "");
    if (!writing || !pushed) return;
    heldSeq = Math.max(heldSeq, Number(pushed[1]));
    evt.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!isWrite(evt) || !writing) return;
    writing--;
    if (writing) return;
    var held = heldSeq;
    heldSeq = 0;
    // after the answer has settled: htmx wires the swapped-in #live's triggers then
    setTimeout(function () {
      var live = document.getElementById("live");
      if (live && held > Number(live.dataset.seq)) htmx.trigger(live, "refresh");
    }, 100);
  });

  // 3. Offline: say so, keep each tapped move (its client_event_id fixed when tapped)
  //    and send it once the connection is back.
  var status = document.getElementById("connection");
  var key = "tablescribe:pending:" + location.pathname;

  function say(which) {
    if (!status) return;
    status.textContent = status.dataset[which] || "";
    status.hidden = !status.textContent;
  }

  function pending() {
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }

  function keep(list) {
    localStorage.setItem(key, JSON.stringify(list));
    var box = document.getElementById("pending");
    if (box) {
      box.hidden = list.length === 0;
      box.textContent = list.length ? (box.dataset.waiting || "") + " (" + list.length + ")" : "";
    }
  }

  function field(form, name) { return form.querySelector('[name="' + name + '"]'); }

  function queue(form, formData, path) {
    var entries = [];
    formData.forEach(function (value, name) { if (typeof value === "string") entries.push([name, value]); });
    var id = (entries.find(function (e) { return e[0] === "client_event_id"; }) || [])[1];
    var list = pending().filter(function (m) { return m.id !== id; });
    list.push({ id: id, path: path, entries: entries });
    keep(list);
    // the next move typed offline is another move, after this one
    if (form && form.id === "move-form") {
      form.reset();
      var seq = field(form, "expected_seq"), cid = field(form, "client_event_id");
      if (seq) seq.value = String(Number(seq.value) + 1);
      if (cid && window.crypto && crypto.randomUUID) cid.value = crypto.randomUUID().replace(/-/g, "");
    }
  }

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail.requestConfig;
    if (navigator.onLine || !config || config.verb !== "post") return;
    evt.preventDefault();
    queue(evt.detail.elt.closest("form"), config.formData, config.path);
    say("offline");
  });
  document.addEventListener("htmx:sendError", function (evt) {
    var config = evt.detail.requestConfig;
    if (config && config.verb === "post") queue(evt.detail.elt.closest("form"), config.formData, config.path);
  });

  var sending = false;
  function sendPending() {
    var list = pending();
    if (sending || !list.length || !navigator.onLine) return;
    sending = true;
    var move = list[0];
    fetch(move.path, {
      method: "POST", credentials: "same-origin",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(move.entries)
    }).then(function (response) {
      return response.text().then(function (html) {
        // sent: whatever the answer (recorded, or refused with the fresh board), it is shown
        keep(pending().filter(function (m) { return m.id !== move.id; }));
        if (response.status < 500 && html) {
          htmx.swap("#table-body", html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
        }
        sending = false;
        if (response.ok) sendPending();
      });
    }).catch(function () { sending = false; });  // still offline: kept for the next try
  }

  window.addEventListener("offline", function () { say("offline"); });
  window.addEventListener("online", function () {
    say("back");
    setTimeout(function () { if (navigator.onLine) say("none"); }, 4000);
    sendPending();
  });
  keep(pending());
  if (!navigator.onLine) say("offline");
  sendPending();
})();
