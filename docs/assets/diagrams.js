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

  function scheme() {
    return document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "default";
  }

  function render() {
    var blocks = document.querySelectorAll("div.diagram");
    if (!blocks.length) return;
    blocks.forEach(function (b) {
      // Keep the source: a palette switch draws the diagram again in the other theme.
      if (!b.hasAttribute("data-source")) b.setAttribute("data-source", b.textContent);
    });
    load().then(function (mermaid) {
      var theme = scheme();
      var todo = [];
      blocks.forEach(function (b) {
        if (b.getAttribute("data-theme") === theme) return;
        b.removeAttribute("data-processed");
        b.textContent = b.getAttribute("data-source");
        b.setAttribute("data-theme", theme);
        b.classList.add("mermaid");
        todo.push(b);
      });
      if (!todo.length) return;
      mermaid.initialize({ startOnLoad: false, theme: theme, securityLevel: "strict" });
      mermaid.run({ nodes: todo }).then(function () {
        // On a phone the diagram keeps its natural width and scrolls sideways (book.css).
        todo.forEach(function (b) {
          var svg = b.querySelector("svg");
          if (svg && svg.style.maxWidth) b.style.setProperty("--natural-width", svg.style.maxWidth);
        });
      });
    });
  }

  new MutationObserver(render).observe(document.body, {
    attributes: true, attributeFilter: ["data-md-color-scheme"],
  });
  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(render);
  } else {
    document.addEventListener("DOMContentLoaded", render);
  }
})();
