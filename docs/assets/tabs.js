// Material links tabs by their visible label text, so a tab set inside a closed
// "??? note" block misses the reader's choice. Apply it when the block opens, and on load.
(function () {
  function preferred() {
    try { return (window.__md_get && window.__md_get("__tabs")) || []; } catch (e) { return []; }
  }
  function apply(root) {
    var order = preferred();
    root.querySelectorAll(".tabbed-set").forEach(function (set) {
      var labels = set.querySelectorAll(":scope > .tabbed-labels > label");
      var inputs = set.querySelectorAll(":scope > input");
      for (var k = 0; k < order.length; k++) {
        for (var i = 0; i < labels.length && i < inputs.length; i++) {
          if (labels[i].textContent.trim() === order[k]) {
            inputs[i].checked = true;
            return;
          }
        }
      }
    });
  }
  // On load too: pitfall pages open the burn tab first where a section is about burn code
  // (book/structure.py), and Material restores the reader's choice through one tab set only,
  // which does not reach sets whose default differs.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { apply(document); });
  } else {
    apply(document);
  }
  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (d && d.tagName === "DETAILS" && d.open) apply(d);
  }, true);
})();
