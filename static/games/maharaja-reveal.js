// Maharaja: while a player picks the two actions to reveal, say what they cost together and,
// where the phone may see his gold, warn when it is more than he will have (the form renders
// the same sentence from the server after a submit; this only saves the round trip).
(function () {
  "use strict";
  function update(grid) {
    var total = 0;
    grid.querySelectorAll("select").forEach(function (select) {
      var option = select.options[select.selectedIndex];
      total += option ? parseInt(option.dataset.cost || "0", 10) : 0;
    });
    var note = grid.parentNode.querySelector("[data-testid=mh-reveal-cost]");
    if (!note) { return; }
    var gold = grid.dataset.gold === "" ? null : parseInt(grid.dataset.gold, 10);
    var over = gold !== null && total > gold;
    var says = over ? note.dataset.overSays : (total ? note.dataset.costSays : "");
    note.textContent = says.replace("%s", total).replace("%s", gold);
    note.classList.toggle("over", over);
  }
  if (!window.mhRevealCosts) {
    window.mhRevealCosts = true;
    document.addEventListener("change", function (event) {
      var grid = event.target.closest && event.target.closest(".mh-reveal");
      if (grid) { update(grid); }
    });
  }
}());
