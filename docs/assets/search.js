// Changes to the theme's search, made before its bundle runs:
// 1. The index (over 1 MB) is fetched when the reader starts to search, not on every page
//    load: the theme's request for it waits until the search box is used. Both engines ask
//    for it by XMLHttpRequest: Material for search/search_index.json, Zensical for search.json.
// 2. A pasted error message is searched for its words. Material reads quotes, + - ~ ^ * and :
//    as lunr query syntax, so `AlreadyExists("checkpoint.bpk")` found nothing at all.
(function () {
  // Under Zensical (make site ENGINE=zensical) the search is its own, not lunr: 1 applies, and
  // dropPaths below instead of 2 and 3.
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

  // Both engines send their worker a query as {type: 2, data: ...}: Material the query
  // string, Zensical {input: "<query>", ...}.
  var QUERY = 2;
  var Original = window.Worker;
  if (!Original) return;
  function clean(q) {
    return q.replace(/["+~^*:]/g, " ").replace(/(^|\s)-+/g, "$1 ");
  }
  // Zensical matches every word of a query, so the reader's own path in a pasted message
  // (/home/me/port/target/...) finds nothing: the book prints $DIR there. Such words go.
  function dropPaths(q) {
    return q.split(/\s+/).filter(function (w) { return !/^['"(<\[]*(~|\/)\S*\/./.test(w); }).join(" ");
  }
  // A name pasted from a PyTorch script (F.cross_entropy, torch.optim.Adam(model.parameters()),
  // nn.CrossEntropyLoss) is searched by its last part: the namespace words (F, torch, nn,
  // Tensor) are on half the book's pages and would outweigh the name itself. The map's rows
  // carry every spelling in their titles (book/site/row_search.py).
  function apiName(q) {
    var m = /^\s*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\s*(?:\(.*)?$/.exec(q);
    if (!m) return q;
    var parts = q.split("(")[0].trim().split(".");
    return parts[parts.length - 1];
  }
  // 3. Material's worker runs inside javascripts/workers/book-search.js, which fixes a lunr bug
  //    that made every query with a common number in it fail (see that file).
  var MATERIAL_WORKER = /(^|\/)(search\.[0-9a-f]+\.min\.js)$/;
  window.Worker = function (url, options) {
    var m = !zensical && String(url).match(MATERIAL_WORKER);
    if (m) url = String(url).replace(MATERIAL_WORKER, "$1book-search.js?material=" + m[2]);
    var w = new Original(url, options);
    var post = w.postMessage;
    w.postMessage = function (msg) {
      if (msg && msg.type === QUERY && typeof msg.data === "string") {
        arguments[0] = { type: QUERY, data: clean(apiName(msg.data)) };
      } else if (zensical && msg && msg.type === QUERY && msg.data && typeof msg.data.input === "string") {
        arguments[0] = { type: QUERY, data: Object.assign({}, msg.data, { input: dropPaths(apiName(msg.data.input)) }) };
      }
      return post.apply(w, arguments);
    };
    return w;
  };
  window.Worker.prototype = Original.prototype;
})();
