// Replay: the slider jumps to its step, the arrow keys step back and forth.
// Every control is also a plain link or form, so the page works without this file.
// Loaded without `defer` and listening on the document at once: a key pressed as soon
// as the new step shows is not lost while the rest of the page is still parsed.
(function () {
  "use strict";
  function go(step) {
    var link = document.querySelector('a[data-step="' + step + '"]');
    if (link) { window.location.href = link.href; }
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if ((tag === "input" && event.target.type !== "range") || tag === "textarea" || tag === "select") { return; }
    var step = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[event.key];
    if (step) { event.preventDefault(); go(step); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("replay-slider");
    if (form) {
      var slider = form.querySelector("input[type=range]");
      var shown = form.querySelector("[data-testid=step]");
      slider.addEventListener("input", function () { shown.textContent = slider.value; });
      slider.addEventListener("change", function () { form.submit(); });
    }
  });
})();
