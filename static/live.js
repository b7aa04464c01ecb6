// The table page's own script: only what htmx, its SSE extension and idiomorph do not
// do themselves (docs/architecture.md, "Live updates").
(function () {
  "use strict";

  // 1. A live update never takes what the phone is doing: the morph keeps an open
  //    <details>, typed text, ticked boxes and chosen options as the user left them. What a
  //    choice sends (an option's or a box's value) always follows the new page, so a label
  //    never stands over an old value; only a choice the user made is carried over, by its
  //    value, and only where the new page still offers that value.
  function typed(el) {
    if (el instanceof HTMLTextAreaElement) return el.value !== el.defaultValue;
    return el instanceof HTMLInputElement && el.type !== "hidden" && el.type !== "checkbox"
      && el.type !== "radio" && el.value !== el.defaultValue;
  }
  // The option a select shows untouched: the last one marked selected, else the first
  // that can be chosen (the browser's own rule), so an unmarked first option is no choice.
  function untouchedIndex(select) {
    var options = select.options, first = -1;
    for (var i = options.length - 1; i >= 0; i--) {
      if (options[i].defaultSelected) return i;
      if (!options[i].disabled) first = i;
    }
    return first;
  }
  function chosen(select) {
    if (!select.multiple) return select.selectedIndex !== untouchedIndex(select);
    return Array.prototype.some.call(select.options, function (o) { return o.selected !== o.defaultSelected; });
  }
  function userChanged(el) {
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) return el.checked !== el.defaultChecked;
    if (el instanceof HTMLSelectElement) return chosen(el);
    return typed(el);
  }
  function isBox(el) { return el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio"); }
  // A select's choice, by value: after the morph it is chosen again where still offered.
  function chosenValues(select) {
    return Array.prototype.filter.call(select.options, function (o) { return o.selected; }).map(function (o) { return o.value; });
  }
  function choose(select, values) {
    var any = false;
    Array.prototype.forEach.call(select.options, function (o) {
      o.selected = values.indexOf(o.value) >= 0 && (select.multiple || !any);
      any = any || o.selected;
    });
    if (!any) untouched(select);
  }
  function untouched(select) {
    if (select.multiple) Array.prototype.forEach.call(select.options, function (o) { o.selected = o.defaultSelected; });
    else select.selectedIndex = untouchedIndex(select);
  }
  if (window.Idiomorph) {
    var choices = new WeakMap();
    Idiomorph.defaults.callbacks.beforeNodeMorphed = function (el) {
      if ((el instanceof HTMLSelectElement || isBox(el)) && userChanged(el)) {
        choices.set(el, el instanceof HTMLSelectElement ? chosenValues(el) : el.value);
      }
      return true;
    };
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el) {
      if (name === "open" && el instanceof HTMLDetailsElement) return false;
      if (name === "value") return !typed(el);
      // a ticked box or radio stays as the user left it while it still sends the same value
      return !(name === "checked" && isBox(el) && choices.get(el) === el.value);
    };
    Idiomorph.defaults.callbacks.afterNodeMorphed = function (el) {
      if (el instanceof HTMLSelectElement) {
        if (choices.has(el)) choose(el, choices.get(el)); else untouched(el);
      }
      choices.delete(el);
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

  // 2b'. A move's answer may carry only the regions the move changed (web/partial.py), each
  //     swapped by its id, the page's seq first with the seq the answer builds on: a page
  //     that does not show that one takes none of them and asks for the whole live region.
  //     Forms the answer does not send again take the seq the page shows when tapped.
  //     A push or a poll that came before the answer (a queued move sent when the phone was
  //     back online races the stream's reconnect) has moved the page on: the answer's regions
  //     no longer fit, so the whole table is fetched with the move's ✓ (``?done=``).
  var outOfStep = false, answered = null;
  function liveSeq() { var live = document.getElementById("live"); return live ? live.dataset.seq : null; }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target, fragment = evt.detail.fragment;
    var marker = fragment && fragment.firstElementChild;
    if (target && target.id === "live-seq" && marker && marker.dataset.from !== undefined) {
      outOfStep = marker.dataset.from !== liveSeq();
      answered = marker.dataset.seq;
    }
    if (outOfStep) evt.detail.shouldSwap = false;
  });
  //     The forms that follow the table (Undo, Void, the pad's cells: data-follows-table) hold
  //     the seq they were rendered at, and a move's regions leave most of them as they were:
  //     their expected_seq is set to the page's, as a whole push's morph sets it.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var live = document.getElementById("live"), marker = document.getElementById("live-seq");
    if (evt.target !== marker || !live || outOfStep) return;
    live.dataset.seq = marker.dataset.seq;
    document.querySelectorAll("form[data-follows-table] input[name=expected_seq]").forEach(function (input) {
      input.value = marker.dataset.seq;
    });
  });
  //     A poll's regions (the same as a push's, below) that no longer fit fetch the live region.
  document.addEventListener("htmx:afterSwap", function (evt) {
    if (!outOfStep) return;
    outOfStep = false;
    if (evt.target && evt.target.id === "table-body") {
      htmx.ajax("GET", location.pathname + "?done=" + encodeURIComponent(answered), { target: "#table-body", swap: "outerHTML" });
      return;
    }
    refreshLive();
  });
  function refreshLive() {
    var live = document.getElementById("live");
    if (live) htmx.trigger(live, "refresh");
  }
  document.addEventListener("htmx:configRequest", function (evt) {
    var elt = evt.detail.elt, seq = liveSeq();
    if (seq === null || !elt) return;
    if (elt.id === "live") evt.detail.path = evt.detail.path.replace(/([?&]seq=)\d+/, "$1" + seq);
    else if (evt.detail.verb === "post" && elt.closest && elt.closest("form[data-follows-table]")) {
      evt.detail.parameters.expected_seq = seq;
    }
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

  // 2d. Another phone's move is pushed as the regions it changed where the server knows the
  //     table before it (web/stream.py, "regions"): they fit only a page that shows that table.
  //     A page that shows another one (it was offline, its stream missed a message, a push was
  //     held or dropped above) takes none of them and fetches the whole live region by one poll,
  //     which brings whatever this page lacks. A push dropped above is no push to check.
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    if (evt.defaultPrevented || evt.detail.type !== "regions") return;
    var from = /data-from="(\d+)"/.exec(evt.detail.data || "");
    if (from && from[1] === liveSeq()) return;
    evt.preventDefault();
    refreshLive();
  });

  // 3. A form the player has started keeps the table it was filled against: a live update
  //    re-targeting it (the score pad's round, the step a board game asks for, its
  //    expected_seq) would record the typed values as another move than the one the player
  //    saw. It is left as it is, a note says the table moved on, and Save answers with
  //    what changed (templates/_stale.html). A form nobody touched follows the table.
  function moveForm() { return document.getElementById("move-form"); }
  function pinned(form) {
    if (!form) return false;
    if (form.dataset.typed) return true;  // rendered again with what the player typed
    return Array.prototype.some.call(form.elements, userChanged);
  }
  // The answer to this phone's own tap may keep its form (the next one would show the same,
  // web/partial.py): the form is then made what a fresh one is — nothing typed or chosen,
  // every part closed — before the answer's fresh per-move fields go in (_move_form_fields.html).
  function fresh(form) {
    form.reset();
    form.querySelectorAll("details[open]").forEach(function (d) { d.open = false; });
    var note = document.getElementById("waiting-note");
    if (note && form.contains(note)) note.remove();
  }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var form = moveForm(), target = evt.detail.target;
    if (!form || !target || target === form || !form.contains(target)) return;
    var incoming = evt.detail.fragment && evt.detail.fragment.firstElementChild;
    if (incoming && incoming.hasAttribute("data-form-kept")) return fresh(form);
    if (!pinned(form)) return;
    evt.detail.shouldSwap = false;
    var note = form.querySelector("[data-testid=form-behind]");
    if (note) note.hidden = false;
  });

  // 4. A tap while this phone's last write is on its way: htmx would queue it on the form the
  //    answer is about to replace and drop it there, the tap lost. It waits, its button shown
  //    busy, and is made again on the answer's fresh page, so it carries the new
  //    expected_seq. When the answer refused the move before it, or no longer offers that
  //    button, nothing is sent and the phone says so beside the answer.
  var inFlight = null, held = [];
  var texts = document.getElementById("netbar") || document.createElement("div");

  function clean(s) { return (s || "").replace(/\s+/g, " ").trim(); }
  function formKey(form) { return form.id || form.getAttribute("hx-post") || form.getAttribute("action") || ""; }
  function tapOf(evt) {
    var elt = evt.detail.elt, trigger = evt.detail.triggeringEvent;
    if (!elt || !trigger || (trigger.type !== "submit" && trigger.type !== "click")) return null;
    if (!elt.closest || !elt.closest("#table-body") || elt.id === "live") return null;
    if (elt instanceof HTMLFormElement) {
      var button = trigger.submitter || null;
      return { form: formKey(elt), name: button ? button.name : "", value: button ? button.value : "",
               text: button ? clean(button.textContent) : "", button: button, elt: elt,
               typed: typedIn(elt) };
    }
    return { link: elt.getAttribute("hx-get") || elt.getAttribute("href") || "", text: clean(elt.textContent), elt: elt };
  }
  function sameTap(a, b) {
    return a && b && a.form === b.form && a.link === b.link && a.name === b.name && a.value === b.value;
  }
  function typedIn(form) {
    return Array.prototype.filter.call(form.elements, userChanged).map(function (el) {
      return { name: el.name, value: el.value, checked: el.checked };
    });
  }
  function twinOf(tap) {
    var body = document.getElementById("table-body");
    if (!body) return null;
    if (tap.link !== undefined) {
      return Array.prototype.find.call(body.querySelectorAll("[hx-get]"), function (e) {
        return e.getAttribute("hx-get") === tap.link;
      }) || null;
    }
    var form = Array.prototype.find.call(document.querySelectorAll("#table-body form"), function (f) {
      return formKey(f) === tap.form;
    });
    if (!form) return null;
    if (!tap.button) return { form: form };
    var button = Array.prototype.find.call(document.querySelectorAll("button, input[type=submit]"), function (b) {
      return b.form === form && b.name === tap.name && b.value === tap.value && clean(b.textContent) === tap.text;
    });
    return button ? { form: form, button: button } : null;
  }
  function busy(el, on) {
    if (!el || !el.setAttribute) return;
    if (on) el.setAttribute("aria-busy", "true"); else el.removeAttribute("aria-busy");
  }
  function notSent(tap, why) {
    var note = document.createElement("p");
    note.className = "problems tap-not-sent";
    note.setAttribute("role", "alert");
    note.dataset.testid = "tap-not-sent";
    note.textContent = (texts.dataset[why] || "").replace("%s", tap.text || "");
    var body = document.getElementById("table-body");
    var said = document.querySelector("#table-body [data-testid=problems], #table-body [data-testid=ack]");
    if (said) said.insertAdjacentElement("afterend", note);
    else if (body) body.insertAdjacentElement("afterbegin", note);
    note.scrollIntoView({ block: "nearest" });
  }
  function replay(tap) {
    var twin = twinOf(tap);
    if (!twin) return notSent(tap, "notOffered");
    if (twin instanceof Element) return twin.click();
    (tap.typed || []).forEach(function (was) {  // what the player typed in a form of its own
      Array.prototype.forEach.call(twin.form.elements, function (el) {
        if (el.name !== was.name || el.type === "hidden") return;
        if (el.type === "checkbox" || el.type === "radio") { if (el.value === was.value) el.checked = was.checked; }
        else el.value = was.value;
      });
    });
    if (twin.button) twin.button.click(); else htmx.trigger(twin.form, "submit");
  }
  function afterAnswer(go) {
    var done = false;
    function once() {
      if (done) return;
      done = true;
      document.removeEventListener("htmx:afterSettle", settled);
      go();
    }
    function settled(evt) { if (evt.target && evt.target.id === "table-body") once(); }
    document.addEventListener("htmx:afterSettle", settled);
    setTimeout(once, 400);  // an answer that swapped nothing (a server error) settles nothing
  }

  document.addEventListener("htmx:confirm", function (evt) {
    var tap = tapOf(evt);
    if (!tap) return;
    if (!writing && !inFlight) {
      if (evt.detail.verb === "post") { inFlight = tap; busy(tap.button || tap.elt, true); }
      return;
    }
    evt.preventDefault();
    if (sameTap(tap, inFlight) || held.some(function (h) { return sameTap(h, tap); })) return;  // a double tap
    held.push(tap);
    busy(tap.button || tap.elt, true);
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!isWrite(evt) || !inFlight) return;
    var xhr = evt.detail.xhr, recorded = xhr && xhr.status >= 200 && xhr.status < 300;
    busy(inFlight.button || inFlight.elt, false);
    inFlight = null;
    if (!held.length) return;
    var waiting = held;
    held = [];
    afterAnswer(function () {
      if (!recorded) return waiting.forEach(function (tap) { notSent(tap, "notSent"); });
      var next = waiting.shift();
      held = waiting;  // the rest wait for the answer to this one
      replay(next);
      if (!inFlight) {  // nothing went: the others are not sent either
        held.forEach(function (tap) { notSent(tap, "notSent"); });
        held = [];
      }
    });
  });
  document.addEventListener("htmx:sendError", function () {
    if (inFlight) busy(inFlight.button || inFlight.elt, false);
    inFlight = null;
  });

  // 5. Offline: say so, keep each tapped move (its client_event_id fixed when tapped) and
  //    send it once the connection is back. The tap is answered where the thumb is: a
  //    "not saved yet" note beside its button, never the ✓ of an earlier move, and a bar
  //    that stays on screen. Queued moves are a chain: once one is refused, the ones after
  //    it are held, each shown with a choice (send it now / discard).
  var status = document.getElementById("connection");
  var key = "tablescribe:pending:" + location.pathname;

  function say(which) {
    if (!status) return;
    status.textContent = status.dataset[which] || "";
    status.hidden = !status.textContent;
    barShown();
  }

  function barShown() {
    var bar = document.getElementById("netbar");
    if (!bar) return;
    var shown = Array.prototype.some.call(bar.children, function (c) { return !c.hidden; });
    bar.hidden = !shown;
    document.documentElement.classList.toggle("with-netbar", shown);
  }

  function pending() {
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }

  function keep(list) {
    localStorage.setItem(key, JSON.stringify(list));
    var waiting = list.filter(function (m) { return !m.held; }).length;
    var box = document.getElementById("pending");
    if (box) {
      box.hidden = waiting === 0;
      box.textContent = waiting ? (box.dataset.waiting || "") + " (" + waiting + ")" : "";
    }
    showHeld(list.filter(function (m) { return m.held; }));
    var note = document.getElementById("waiting-note");
    if (note) {
      if (waiting) showWaitingList(note, list.filter(function (m) { return !m.held; }));
      else note.remove();
    }
    barShown();
  }

  // Beside the form, every move that waits on this phone, in the order it will be sent.
  function showWaitingList(note, moves) {
    note.textContent = note.dataset.lead + " (" + moves.length + ")" + (moves.length === 1 && moves[0].label ? ": " + moves[0].label : "");
    if (moves.length < 2) return;
    var items = document.createElement("ol");
    moves.forEach(function (move) {
      var li = document.createElement("li");
      li.dataset.testid = "waiting-move";
      li.textContent = move.label || "";
      items.appendChild(li);
    });
    note.appendChild(items);
  }

  function showHeld(list) {
    var box = document.getElementById("held");
    if (!box) return;
    box.hidden = list.length === 0;
    var items = box.querySelector("ol");
    items.textContent = "";
    list.forEach(function (move) {
      var li = document.createElement("li");
      li.dataset.testid = "held-move";
      var what = document.createElement("span");
      what.textContent = move.label || "";
      li.appendChild(what);
      [["send", "held-send"], ["drop", "held-drop"]].forEach(function (b) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = b[0] === "send" ? "primary" : "secondary";
        button.textContent = box.dataset[b[0]];
        button.dataset.testid = b[1];
        button.addEventListener("click", function () { decide(move.id, b[0]); });
        li.appendChild(button);
      });
      items.appendChild(li);
    });
  }

  // The player's choice for a held move: "send" records it on the table as it is now (the
  // board this phone shows), "drop" forgets it.
  function decide(id, choice) {
    var list = pending(), move = list.find(function (m) { return m.id === id; });
    if (!move) return;
    list = list.filter(function (m) { return m.id !== id; });
    if (choice === "send") {
      var live = document.getElementById("live");
      move.held = false;
      move.entries = move.entries.map(function (e) {
        return e[0] === "expected_seq" && live ? ["expected_seq", live.dataset.seq] : e;
      });
      list.unshift(move);
    }
    keep(list);
    sendPending();
  }

  function field(form, name) { return form.querySelector('[name="' + name + '"]'); }

  function labelOf(el) {
    if (el.labels && el.labels.length) return clean(el.labels[0].textContent);
    return clean(el.getAttribute("aria-label") || el.name);
  }

  // What the tap was, in the form's own words: its button, then what was filled in.
  function tapLabel(form, submitter) {
    if (!form) return "";
    var said = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.disabled || el instanceof HTMLButtonElement || el.type === "submit") return;
      if (el.type === "checkbox" || el.type === "radio") { if (el.checked) said.push(labelOf(el)); return; }
      var value = el instanceof HTMLSelectElement ? (el.selectedOptions[0] ? el.selectedOptions[0].text : "") : el.value;
      if (clean(value)) said.push(labelOf(el) + ": " + clean(value));
    });
    var lead = submitter ? clean(submitter.textContent) : "";
    var round = form.querySelector("#pad-round");  // which round: the list of waiting moves tells them apart
    if (round) said.unshift(clean(round.textContent));
    return lead + (lead && said.length ? " — " : "") + said.join(" · ");
  }

  // Beside the button, in the answer's place: this tap waits, it is not saved. An older
  // answer (an earlier ✓ or refusal) goes, so it cannot pass for this tap's.
  function showWaiting(form, label) {
    document.querySelectorAll("#table-body [data-testid=ack], #table-body [data-testid=problems], #table-body [data-testid=tap-not-sent], #table-body [data-testid=stale]")
      .forEach(function (el) { el.remove(); });
    var old = document.getElementById("waiting-note");
    if (old) old.remove();
    if (!form) return;
    var note = document.createElement("p");
    note.id = "waiting-note";
    note.className = "waiting";
    note.setAttribute("role", "status");
    note.dataset.testid = "waiting";
    note.dataset.lead = texts.dataset.notSaved || "";
    form.appendChild(note);
  }

  function queue(form, formData, path, submitter) {
    var entries = [];
    formData.forEach(function (value, name) { if (typeof value === "string") entries.push([name, value]); });
    var id = (entries.find(function (e) { return e[0] === "client_event_id"; }) || [])[1];
    var label = tapLabel(form, submitter);
    var list = pending().filter(function (m) { return m.id !== id; });
    list.push({ id: id, path: path, entries: entries, label: label });
    showWaiting(form, label);
    keep(list);
    var note = document.getElementById("waiting-note");
    if (note) note.scrollIntoView({ block: "nearest" });
    // the next move typed offline is another move, after this one
    if (form && form.id === "move-form") {
      form.reset();
      var seq = field(form, "expected_seq"), cid = field(form, "client_event_id");
      if (seq) seq.value = String(Number(seq.value) + 1);
      if (cid) cid.value = newMoveId();
      composeAfter(form);
    }
  }

  // The form after a move queued offline is for the table after that move: the score pad
  // fills the next round (every player's field, the round after the queued one), which a
  // phone can know by itself; any other form depends on what the server makes of the
  // queued move, so it waits for it, plainly, until the move is sent and the answer brings
  // the next form. (Re-entering an emptied round, the pad too waits.)
  function composeAfter(form) {
    var entry = form.querySelector("#pad-entry"), round = field(form, "round");
    if (entry && round && entry.dataset.fill === entry.dataset.playing) {
      var next = String(Number(round.value) + 1);
      round.value = entry.dataset.fill = entry.dataset.playing = next;
      entry.querySelector("#pad-round").firstChild.textContent = (entry.dataset.roundText || "").replace("%s", next);
      entry.querySelectorAll("output").forEach(function (o) { o.remove(); });
      entry.querySelectorAll("[data-filled]").forEach(function (later) {
        later.hidden = false;
        later.querySelectorAll("input").forEach(function (i) { i.disabled = false; });
      });
      return;
    }
    form.dataset.waits = "1";
    form.querySelectorAll("button, input[type=submit]").forEach(function (b) { b.disabled = true; });
    if (form.querySelector("[data-testid=waits-for-queued]")) return;
    var note = document.createElement("p");
    note.className = "notice waiting";
    note.setAttribute("role", "status");
    note.dataset.testid = "waits-for-queued";
    note.textContent = texts.dataset.waitsForQueued || "";
    form.insertBefore(note, form.querySelector("#waiting-note"));
  }

  // A tap that fetches something to show (a Five Tribes tile's path, or a meeple dropped
  // along it: the form drawn again by the server) cannot wait offline like a move: it says
  // so where it was tapped, at once.
  function onlyShows(config) {
    return config.verb === "get" || /\/form$/.test(config.path.split("?")[0]);
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail.requestConfig, elt = evt.detail.elt;
    if (navigator.onLine || !config || !onlyShows(config) || !elt || elt.id === "live") return;
    if (!elt.closest || !elt.closest("#table-body")) return;
    evt.preventDefault();
    if (inFlight) busy(inFlight.button || inFlight.elt, false);
    inFlight = null;   // a POST of the form drawn again was taken for a write on its way
    say("offline");
    var old = document.querySelector("[data-testid=tap-needs-connection]");
    if (old) old.remove();
    var note = document.createElement("p");
    note.className = "problems";
    note.setAttribute("role", "alert");
    note.dataset.testid = "tap-needs-connection";
    note.textContent = texts.dataset.needsConnection || "";
    var place = elt.closest("form, section, div") || elt;
    place.insertAdjacentElement("afterbegin", note);
    note.scrollIntoView({ block: "nearest" });
  });

  // A move's own id, 32 hex digits like the server's: crypto.randomUUID exists only in a
  // secure context, and a phone on the LAN's plain http is none (getRandomValues is everywhere).
  function newMoveId() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function submitterOf(evt) {
    var trigger = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent;
    return trigger && trigger.submitter || null;
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail.requestConfig;
    if (navigator.onLine || !config || config.verb !== "post" || onlyShows(config)) return;
    evt.preventDefault();
    if (inFlight) busy(inFlight.button || inFlight.elt, false);
    inFlight = null;
    say("offline");
    queue(evt.detail.elt.closest("form"), config.formData, config.path, submitterOf(evt));
  });
  document.addEventListener("htmx:sendError", function (evt) {
    var config = evt.detail.requestConfig;
    if (config && config.verb === "post" && !onlyShows(config)) queue(evt.detail.elt.closest("form"), config.formData, config.path, submitterOf(evt));
  });

  // Forms that live updates replace carry no token of their own (they are shared by every
  // phone of a view, web/rendered.py): the phone's token is the header htmx sends (base.html).
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  var sending = false;
  function sendPending() {
    var move = pending().find(function (m) { return !m.held; });
    if (sending || !move || !navigator.onLine) return;
    sending = true;
    fetch(move.path, {
      method: "POST", credentials: "same-origin",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
                 "X-CSRFToken": csrfToken() },
      body: new URLSearchParams(move.entries)
    }).then(function (response) {
      return response.text().then(function (html) {
        sending = false;
        if (response.status === 503) return retryAfter(response.headers.get("Retry-After"));
        if (response.status >= 500) return;  // the server could not take it: kept for the next try
        if (busyShown) { busyShown = false; say("none"); }
        // answered (recorded, or refused with the fresh board): it is shown where it was tapped
        var list = pending().filter(function (m) { return m.id !== move.id; });
        if (!response.ok) list.forEach(function (m) { m.held = true; });  // a broken chain
        keep(list);
        var style = response.headers.get("HX-Reswap") === "none" ? "none" : "outerHTML";  // a move's regions alone
        if (html) htmx.swap("#table-body", html, { swapStyle: style, swapDelay: 0, settleDelay: 20 });
        keep(pending());  // the swap put a fresh form in: say again what still waits
        if (response.ok) sendPending();
      });
    }).catch(function () { sending = false; });  // still offline: kept for the next try
  }

  // 6. A write the server could not take just now (503: it was busy writing, e.g. a large
  //    import held the database; nothing was recorded) joins the same queue as an offline
  //    tap, shown waiting where the thumb is, and is sent again by itself after the
  //    Retry-After the server gave (the same client_event_id: recorded once).
  var busyShown = false, retryTimer = null;
  function retryAfter(header) {
    var seconds = Math.min(30, Math.max(1, Number(header) || 2));
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; sendPending(); }, seconds * 1000);
  }
  document.addEventListener("htmx:afterRequest", function (evt) {
    var config = evt.detail.requestConfig, xhr = evt.detail.xhr;
    if (!config || config.verb !== "post" || !xhr || xhr.status !== 503) return;
    busyShown = true;
    say("busy");
    queue(evt.detail.elt.closest("form"), config.formData, config.path, submitterOf(evt));
    retryAfter(xhr.getResponseHeader("Retry-After"));
  });

  // 7. A page the browser kept whole and shows again on Back or Forward (its back-forward
  //    cache) is the table as it was when left: it is loaded again before anything is tapped
  //    on it (the server sends the table page with no-store, so it is never the HTTP cache's).
  window.addEventListener("pageshow", function (evt) { if (evt.persisted) location.reload(); });

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
