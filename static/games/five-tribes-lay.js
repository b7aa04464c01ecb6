// Five Tribes: while the table enters the sultanate it dealt, the keys show how many tiles of each
// kind and meeples of each colour are still to place. The form works without this file (the
// server checks the 30 tiles and the 16/20/18/18/18 meeples on submit and says which is off).
(function () {
  "use strict";
  function count(lay, selector, key, picked) {
    var left = {};
    lay.querySelectorAll(selector).forEach(function (el) { left[el.dataset[key]] = parseInt(el.dataset.count, 10); });
    picked(lay).forEach(function (value) { if (value in left) { left[value] -= 1; } });
    lay.querySelectorAll(selector).forEach(function (el) {
      var n = left[el.dataset[key]];
      el.textContent = " · " + el.dataset.word + " " + n;
      el.classList.toggle("ft-over", n < 0);
    });
  }
  function update(lay) {
    count(lay, "[data-left]", "kind", function (root) {
      return Array.prototype.map.call(root.querySelectorAll("select[name^=tile_]"), function (s) { return s.value; });
    });
    count(lay, "[data-meeples-left]", "tribe", function (root) {
      return Array.prototype.map.call(root.querySelectorAll("input[name^=meeple_]:checked"), function (r) { return r.value; });
    });
  }
  function updateAll() { document.querySelectorAll(".ft-lay").forEach(update); }
  if (!window.ftLayCounts) {
    window.ftLayCounts = true;
    document.addEventListener("change", function (event) {
      var lay = event.target.closest && event.target.closest(".ft-lay");
      if (lay) { update(lay); }
    });
    document.addEventListener("htmx:afterSettle", updateAll);
  }
  updateAll();
})();
