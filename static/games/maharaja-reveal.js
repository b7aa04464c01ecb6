// Maharaja: once the first action to reveal is tapped, say what it costs and mark the second
// actions that together with it cost more than the player will have (where the phone may see
// his gold). The form renders the same sentence from the server after a submit; this only
// saves the round trip.
(function () {
  "use strict";
  function update(reveal) {
    var first = reveal.querySelector("input[name=action1]:checked");
    var cost = first ? parseInt(first.dataset.cost || "0", 10) : 0;
    var note = reveal.querySelector("[data-testid=mh-reveal-cost]");
    var gold = reveal.dataset.gold === "" ? null : parseInt(reveal.dataset.gold, 10);
    reveal.querySelectorAll("button[data-cost]").forEach(function (button) {
      var over = first && gold !== null && cost + parseInt(button.dataset.cost || "0", 10) > gold;
      button.classList.toggle("over", !!over);
    });
    if (!note) { return; }
    var over = gold !== null && cost > gold;
    var says = over ? note.dataset.overSays : (cost ? note.dataset.costSays : "");
    note.textContent = says.replace("%s", cost).replace("%s", gold);
    note.classList.toggle("over", over);
  }
  if (!window.mhRevealCosts) {
    window.mhRevealCosts = true;
    document.addEventListener("change", function (event) {
      var reveal = event.target.closest && event.target.closest(".mh-reveal");
      if (reveal) { update(reveal); }
    });
  }
}());
