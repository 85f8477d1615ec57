// Changes to the theme's search, made before its bundle runs, under either engine (Material's,
// or Zensical's with make site ENGINE=zensical):
// 1. The index (over 1 MB) is fetched when the reader starts to search, not on every page
//    load: the theme's request for it waits until the search box is used. Both engines ask
//    for it by XMLHttpRequest: Material for search/search_index.json, Zensical for search.json.
(function () {
  var gen = document.querySelector('meta[name="generator"]');
  var zensical = !!(gen && /^zensical/.test(gen.getAttribute("content") || ""));
  var INDEX = zensical ? /\/search\.json$/ : /\/search\/search_index\.json$/;
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  var waiting = [];
  var wanted = false;

  XMLHttpRequest.prototype.open = function (method, url) {
    this.__bookIndex = INDEX.test(String(url).split(/[?#]/)[0]);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.__bookIndex && !wanted) {
      waiting.push([this, arguments]);
      return;
    }
    return send.apply(this, arguments);
  };

  function want() {
    if (wanted) return;
    wanted = true;
    waiting.splice(0).forEach(function (w) { send.apply(w[0], w[1]); });
  }
  function isSearch(el) {
    return el && el.closest && (el.closest(".md-search") || el.closest("label[for='__search']"));
  }
  document.addEventListener("focusin", function (e) { if (isSearch(e.target)) want(); }, true);
  document.addEventListener("pointerdown", function (e) { if (isSearch(e.target)) want(); }, true);
  // Zensical's "/" key clicks the search button without a pointer.
  document.addEventListener("click", function (e) { if (isSearch(e.target)) want(); }, true);
  document.addEventListener("change", function (e) {
    if (e.target && e.target.id === "__search" && e.target.checked) want();
  }, true);
  // A link with ?q= opens the search at once.
  if (/[?&]q=/.test(location.search)) want();

  // 2. Both engines' search workers run inside javascripts/workers/book-search.js, which reads
  //    each query before the engine does: identifiers whole (F.cross_entropy, nn.GRU,
  //    GradScaler, Tensor<B, 2>), Chinese in the index's own words, a reader's own paths in a
  //    pasted message left out (see that file). Material's and Zensical's workers have the
  //    same kind of name, in the same folder as book-search.js.
  var Original = window.Worker;
  if (!Original) return;
  var WORKER = /(^|\/)(search\.[0-9a-f]+\.min\.js)$/;
  window.Worker = function (url, options) {
    var m = String(url).match(WORKER);
    if (m) url = String(url).replace(WORKER, "$1book-search.js?" + (zensical ? "zensical=" : "material=") + m[2]);
    return new Original(url, options);
  };
  window.Worker.prototype = Original.prototype;
})();
