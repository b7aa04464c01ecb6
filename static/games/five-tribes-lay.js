// Five Tribes: while the table lays the sultanate, the key shows how many tiles of each kind are
// still to lay. The form works without this file (the server checks the 30 tiles on submit).
(function () {
  "use strict";
  function update(lay) {
    var left = {};
    lay.querySelectorAll("[data-left]").forEach(function (el) { left[el.dataset.kind] = parseInt(el.dataset.count, 10); });
    lay.querySelectorAll("select[name^=tile_]").forEach(function (select) {
      if (select.value in left) { left[select.value] -= 1; }
    });
    lay.querySelectorAll("[data-left]").forEach(function (el) {
      var n = left[el.dataset.kind];
      el.textContent = " · " + el.dataset.word + " " + n;
      el.classList.toggle("ft-over", n < 0);
    });
  }
  function updateAll() { document.querySelectorAll(".ft-lay").forEach(update); }
  if (!window.ftLayCounts) {
    window.ftLayCounts = true;
    document.addEventListener("change", function (event) {
      var lay = event.target.closest && event.target.closest(".ft-lay");
      if (lay && event.target.name && event.target.name.indexOf("tile_") === 0) { update(lay); }
    });
    document.addEventListener("htmx:afterSettle", updateAll);
  }
  updateAll();
})();
