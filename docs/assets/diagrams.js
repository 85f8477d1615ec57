// Render ```mermaid blocks with the vendored mermaid, and only on pages that have one:
// a page without diagrams never downloads it, and nothing comes from outside the site.
(function () {
  var script = document.currentScript;
  var base = script ? script.src.replace(/diagrams\.js(\?.*)?$/, "") : "";
  var loading = null;

  function load() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = base + "vendor/mermaid.min.js";
        s.onload = function () { resolve(window.mermaid); };
        s.onerror = reject;
        document.head.appendChild(s);
      });
    }
    return loading;
  }

  function render() {
    var blocks = document.querySelectorAll("div.diagram:not([data-processed])");
    if (!blocks.length) return;
    load().then(function (mermaid) {
      var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
      mermaid.initialize({ startOnLoad: false, theme: dark ? "dark" : "default",
                           securityLevel: "strict" });
      blocks.forEach(function (b) { b.classList.add("mermaid"); });
      mermaid.run({ nodes: blocks });
    });
  }

  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(render);
  } else {
    document.addEventListener("DOMContentLoaded", render);
  }
})();
