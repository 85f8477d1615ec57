// The search worker of either engine, started by docs/assets/search.js in place of the engine's
// own (named in ?material= or ?zensical=), with the book's query handling in front of it. Both
// engines split `nn.GRU` into nn and gru and ranked a query written as code by its commonest
// part; neither knew that 断点续训 is 续训.
//
// A query is read once, the same way for both engines (analyze):
// - a reader's own path in a pasted message (/home/me/port/target/...) is dropped: the book
//   prints $DIR there;
// - a query that is one identifier, maybe called (F.cross_entropy, torch.optim.AdamW(model
//   .parameters()), GradientClippingConfig::Norm, Tensor<B, 2>, x.masked_fill, GradScaler)
//   requires its key: the identifier kept whole, as book/site/search_keys.py writes it into
//   each entry's hidden fields (kt from the title, kx from the text). nn.GRU needs nn·gru· and
//   is not nn.GRUCell. The key is the one after the aliases (torch.nn.functional.x is F.x) if
//   the index has it, else the identifier's as written, else with the reader's variable
//   replaced (scores.masked_fill → Tensor.masked_fill), else its tail; a call's arguments rank;
// - in other text (a pasted compiler message) the heading of a message the book prints is asked
//   for first (its first words, with or without the code: search_keys.message_key), then every
//   word, then the identifiers in it, then any word;
// - Chinese is cut into the index's own words, fewest pieces, so that a synonym the index
//   carries whole (断点续训) is found whole; each word of two characters or more is required.
// Material (lunr) gets the query as clauses (materialPlan); Zensical, which requires every word
// and ranks a title above a path above text, gets it as text (zensicalInputs). Each gets
// alternatives, tried in order until one finds something.
(function () {
  "use strict";
  var SETUP = 0, QUERY = 2, RESULT = 3;
  var params = new URL(location.href).searchParams;
  var material = params.get("material");
  var engine = material || params.get("zensical");

  // --------------------------------------------------------------------- reading a query
  var SEG = "[A-Za-z_][A-Za-z0-9_]*";
  var ARGS = "(?:::)?<[^<>()]*>";
  // book/site/search_keys.py's PATH.
  var PATH = "(?<![\\w.:-])" + SEG + "(?:" + ARGS + ")?(?:(?:\\.|::|-)(?!\\d)" + SEG + "(?:" + ARGS + ")?)*";
  var CAMEL = /(?<=[A-Za-z0-9])(?=[A-Z][a-z])/;
  var HAN = /[\u3400-\u9fff]/;
  var HAN_RUN = /[\u3400-\u9fff]+/g;
  // One identifier, maybe behind & or quotes, maybe called: the whole query is code.
  var CODE = new RegExp("^[&*`'\"]*\\s*(" + PATH + ")\\s*[`'\"]*\\s*(?:\\(([\\s\\S]*))?$");
  var config = { end: "\u00b7", aliases: {} };
  var separator = /\s+/g;

  // Both engines index HTML and split words at the separator (mkdocs.yml's), which knows &lt;
  // and &gt; but not &amp; or a quote's entity: `&burn::Tensor<2>` was indexed as &amp;burn,
  // tensor, 2, and `'ckpt.pt'` as &#x27;ckpt. The engine gets the separator with them too.
  var ENTITIES = "|&(?:amp|quot|#x?[0-9a-fA-F]+);";

  // The index's config, as the engine will read it (the separator widened in place).
  function setConfig(c) {
    if (!c) return;
    if (c.book) config = c.book;
    if (c.separator && c.separator.indexOf(ENTITIES) < 0) c.separator += ENTITIES;
    // A query is raw text: what the index only has as entities, or never holds, splits it too.
    if (c.separator) separator = new RegExp(c.separator + "|[<>&'#{}$;|@%~^+?\\\\]+", "g");
  }

  function words(text) {
    return text.split(separator).filter(Boolean).map(function (w) { return w.toLowerCase(); });
  }

  function splitTop(text) {
    var out = [], cur = "", depth = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (c === "<") depth++;
      else if (c === ">") depth--;
      if (depth === 0 && !text.startsWith("::<", i)) {
        var m = /^(\.|::|-)/.exec(text.slice(i));
        if (m) { out.push(cur); cur = ""; i += m[0].length - 1; continue; }
      }
      cur += c;
    }
    out.push(cur);
    return out.filter(Boolean);
  }

  // (name, generic arguments) of one segment, as search_keys._segment.
  function segment(seg) {
    var lt = seg.indexOf("<");
    var name = (lt < 0 ? seg : seg.slice(0, lt)).replace(/::$/, "");
    var args = [];
    if (lt >= 0) seg.slice(lt + 1).replace(/>$/, "").split(",").forEach(function (a) {
      a = a.trim().replace(/^&\s*/, "");
      if (new RegExp("^" + PATH + "$").test(a)) splitTop(a).forEach(function (s) { args.push(segment(s).name); });
      else if (/^\w+$/.test(a)) args.push(a.toLowerCase());
    });
    return { name: name.toLowerCase(), raw: name, args: args };
  }

  function keyOf(segs, generic) {
    var parts = [];
    segs.forEach(function (s) { parts.push(s.name); if (generic) parts.push.apply(parts, s.args); });
    return parts.join(config.end) + config.end;
  }

  function canonical(segs) {
    var best = null;
    Object.keys(config.aliases).forEach(function (prefix) {
      var head = prefix.split(".");
      var names = segs.map(function (s) { return s.raw; });
      if (names.length > head.length && head.every(function (h, i) { return names[i] === h; }) &&
          (!best || head.length > best.head.length)) best = { head: head, short: config.aliases[prefix] };
    });
    if (!best) return null;
    return [segment(best.short)].concat(segs.slice(best.head.length));
  }

  // The keys a query identifier may have in the index, most exact first, each with the words
  // of the identifier it keeps whole: [{key, parts}].
  function candidates(identifier) {
    var segs = splitTop(identifier).map(segment);
    var out = [];
    function add(ss) {
      if (!ss.length) return;
      var parts = [];
      ss.forEach(function (s) { parts.push.apply(parts, words(s.raw).concat(s.args)); });
      var camel = ss[0].raw.split(CAMEL).length > 1;
      if (ss.some(function (s) { return s.args.length; })) out.push({ key: keyOf(ss, true), parts: parts });
      if (ss.length > 1 || camel) out.push({ key: keyOf(ss, false), parts: parts });
    }
    // The aliases first: the index holds the short key wherever either spelling is written.
    var canon = canonical(segs);
    if (canon) add(canon);
    add(segs);
    // x.masked_fill: x is the reader's variable; the map spells the method Tensor.masked_fill.
    if (segs.length > 1 && /^[a-z_]\w*$/.test(segs[0].raw)) add([segment("Tensor")].concat(segs.slice(1)));
    for (var i = 1; i < segs.length; i++) add(segs.slice(i));
    var seen = {};
    return out.filter(function (c) { return seen[c.key] ? false : (seen[c.key] = true); });
  }

  function partsOf(identifier) {
    var out = [];
    splitTop(identifier).map(segment).forEach(function (s) {
      out.push.apply(out, words(s.raw).concat(s.args));
    });
    return out;
  }

  function dropPaths(q) {
    return q.split(/\s+/).filter(function (w) { return !/^['"(<\[`]*(~|\/)\S*\/./.test(w); }).join(" ");
  }

  // A query read once for both engines:
  // {code: the identifier when the query is one, candidates, parts, args: its call's words, han}
  // or {code: null, ids: each identifier's candidates, words, han}.
  function analyze(raw) {
    var q = dropPaths(String(raw).replace(/\s+/g, " ").trim());
    var m = CODE.exec(q);
    if (m && m[1]) {
      return { code: m[1], candidates: candidates(m[1]), parts: partsOf(m[1]),
               args: m[2] ? plainWords(m[2]) : [], han: m[2] ? hanRuns(m[2]) : [] };
    }
    var ids = [];
    var re = new RegExp(PATH, "g"), id;
    while ((id = re.exec(q))) ids.push(candidates(id[0]));
    return { code: null, ids: ids.filter(function (c) { return c.length; }), words: plainWords(q),
             han: hanRuns(q), message: messageKey(q) };
  }

  // A pasted error message's key, as search_keys.message_key makes it from the message's
  // heading: its first MESSAGE_WORDS words after the code or the exception's class.
  var MESSAGE_WORDS = 5;
  function messageKey(q) {
    var ws = words(q);
    while (ws.length && (/^(error|e\d{4})$/.test(ws[0]) || /^[a-z_.]*(error|exception|warning)$/.test(ws[0]))) ws.shift();
    if (ws.length < MESSAGE_WORDS) return null;
    return "msg" + config.end + ws.slice(0, MESSAGE_WORDS).join(config.end) + config.end;
  }

  function plainWords(text) {
    return words(text.replace(HAN_RUN, " "));
  }

  function hanRuns(text) {
    return text.match(HAN_RUN) || [];
  }

  // --------------------------------------------------------------------- the index's words
  var tokens = [];  // sorted
  var tokenSet = new Set();

  function setTokens(list) {
    tokenSet = new Set(list);
    tokens = Array.from(tokenSet).sort();
  }

  function hasPrefix(p) {
    var lo = 0, hi = tokens.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (tokens[mid] < p) lo = mid + 1; else hi = mid; }
    return lo < tokens.length && tokens[lo].startsWith(p);
  }

  // The first candidate whose key the index has: {key, parts}, or null.
  function found(cands) {
    for (var i = 0; i < cands.length; i++) if (tokenSet.has(cands[i].key)) return cands[i];
    return null;
  }

  // A run of Chinese as the index's words: fewest pieces, a piece not in the index one character.
  function cut(run) {
    var n = run.length, best = [[]];
    for (var i = 1; i <= n; i++) {
      best[i] = null;
      for (var j = 0; j < i; j++) {
        var piece = run.slice(j, i);
        if (best[j] && (tokenSet.has(piece) || i - j === 1)) {
          var cand = best[j].concat([piece]);
          if (!best[i] || cand.length < best[i].length) best[i] = cand;
        }
      }
    }
    return best[n];
  }

  // --------------------------------------------------------------------- Material (lunr)
  // Each query: alternatives of clauses, the first that finds something wins.
  // A clause: {term, required, prefix, boost, fields, exact}; visible: the words the reader typed.
  // exact: past lunr's search pipeline, whose English stemmer would make resume resum (the
  // index's own words are not stemmed, keys and synonyms least of all).
  var KEY_FIELDS = ["kt", "kx"];
  var TEXT_FIELDS = ["title", "text"];
  var SHORT = 2;

  function materialPlan(raw) {
    var a = analyze(raw), visible = [];
    var all = a.code ? a.parts.concat(a.args) : a.words;
    var last = all[all.length - 1];
    // A word matches the words of a title or text that begin with it (the reader may still be
    // typing it), a short one only itself unless it is the last: "x" and "is" are not every
    // word that begins with them. A hidden key or synonym matches only whole: "a" is not every
    // key that begins with a. Required, it must be in a title or text.
    function word(out, w, required) {
      if (!hasPrefix(w)) return;
      var prefix = w.length > SHORT || w === last;
      out.push({ term: w, required: required, prefix: prefix, boost: 1, fields: TEXT_FIELDS });
      if (tokenSet.has(w)) out.push({ term: w, required: false, prefix: false, boost: 1, fields: KEY_FIELDS, exact: true });
    }
    // Chinese in the index's own words; a word of two characters or more is required, in any
    // field (a synonym may be only hidden).
    function han(out, runs) {
      runs.forEach(function (run) {
        cut(run).forEach(function (piece) {
          if (!hasPrefix(piece)) return;
          out.push({ term: piece, required: piece.length > 1, prefix: true, boost: 1, exact: true });
        });
      });
    }
    function key(out, k, required) {
      out.push({ term: k, required: required, prefix: true, boost: 1, fields: KEY_FIELDS, exact: true });
    }
    (a.code ? a.parts.concat(a.args) : a.words).forEach(function (w) { visible.push(w); });
    (a.han || []).forEach(function (run) { visible.push.apply(visible, cut(run)); });
    var tries = [];
    if (a.code) {
      // One identifier: its key required where the index has it, else its words.
      var hit = found(a.candidates), c = [];
      if (hit) key(c, hit.key, true);
      (hit ? hit.parts : a.parts).forEach(function (w) { word(c, w, !hit); });
      a.args.forEach(function (w) { word(c, w, false); });
      han(c, a.han);
      tries.push(c);
    } else {
      // Other text: every word, as Zensical asks; else the identifiers in it (a message
      // paraphrased, a tutorial's Tensor<B, 2>: Module<B>); else any word.
      var keys = a.ids.map(found).filter(Boolean).map(function (h) { return h.key; });
      // A message the book prints: its heading first.
      if (a.message && tokenSet.has(a.message)) {
        var heading = [];
        key(heading, a.message, true);
        keys.forEach(function (k) { key(heading, k, false); });
        a.words.forEach(function (w) { word(heading, w, false); });
        tries.push(heading);
      }
      var every = [], ids = [];
      keys.forEach(function (k) { key(every, k, false); key(ids, k, true); });
      a.words.forEach(function (w) { word(every, w, true); word(ids, w, false); });
      han(every, a.han);
      han(ids, a.han);
      tries.push(every);
      if (keys.length) tries.push(ids);
    }
    tries.push(tries[tries.length - 1].map(function (c) { return Object.assign({}, c, { required: false }); }));
    return { tries: tries, visible: visible };
  }

  function materialSetup() {
    var L = self.lunr;
    var plan = null;
    var build = L.Builder.prototype.build;
    L.Builder.prototype.build = function () {
      var index = build.call(this);
      setTokens(Object.keys(index.invertedIndex));
      return index;
    };
    var search = L.Index.prototype.search;
    L.Index.prototype.search = function (str) {
      if (!plan) return search.call(this, str);
      var results = [];
      for (var t = 0; t < plan.tries.length && !results.length; t++) {
        var clauses = plan.tries[t];
        if (!clauses.length) continue;
        results = this.query(function (q) {
          clauses.forEach(function (c) {
            var opts = {
              boost: c.boost,
              presence: c.required ? L.Query.presence.REQUIRED : L.Query.presence.OPTIONAL,
              wildcard: c.prefix ? L.Query.wildcard.TRAILING : L.Query.wildcard.NONE
            };
            if (c.fields) opts.fields = c.fields;  // lunr takes a present but empty key as no field
            if (c.exact) opts.usePipeline = false;
            q.term(c.term, opts);
          });
        });
      }
      return results;
    };
    // Material reads the query's words from its own parse (which words a result lacks, and a
    // boost for results that have them all): give it the words the reader typed.
    var parse = L.QueryParser.prototype.parse;
    L.QueryParser.prototype.parse = function () {
      if (!plan) return parse.call(this);
      var query = this.query;
      plan.visible.forEach(function (w) { query.term(w, { fields: ["title", "text"] }); });
      return query;
    };
    return function (data) {
      plan = materialPlan(data);
      return function () { plan = null; };
    };
  }

  // --------------------------------------------------------------------- Zensical
  var original = [];  // each item's title and text length as the page has them

  // Zensical cuts Chinese with the browser's own segmenter, query and index alike, so a hidden
  // synonym (冻结参数) would match wherever its pieces do. Written as letters it stays whole.
  function hanKey(word) {
    return "zh" + config.end + Array.from(word).map(function (c) {
      return c.codePointAt(0).toString(16);
    }).join(config.end) + config.end;
  }

  function hidden(keys) {
    var seen = {};
    return keys.split(" ").filter(function (k) {
      // Zensical ranks by where a word first stands, not how often: once is enough.
      return k && !seen[k] && (seen[k] = true);
    }).map(function (k) { return HAN.test(k) ? k + " " + hanKey(k) : k; }).join(" ");
  }

  function zensicalSetup(data) {
    var all = [];
    (data.items || []).forEach(function (item, i) {
      original[i] = { title: (item.title || "").length, text: (item.text || "").length };
      // The page renders title and text from its own copy: the keys join only this one.
      if (item.kt) item.title = (item.title || "") + " " + hidden(item.kt);
      if (item.kx) item.text = (item.text || "") + " " + hidden(item.kx);
      all.push.apply(all, words((item.title || "") + " " + (item.text || "").replace(/<[^>]*>/g, " ")));
    });
    setTokens(all);
  }

  // Inputs for Zensical, strictest first, each taken if it finds something: it requires every
  // word, so a word the index does not have would leave nothing, and a call's arguments only
  // narrow. An identifier is asked for by its key alone while that finds it in a title:
  // Zensical ranks by where a word first stands, and a title that is the identifier has its
  // key first. Found only in text, it is asked for with its words, which stand where the text
  // shows them (the keys come after the text).
  function zensicalInputs(raw) {
    var a = analyze(raw), tries = [];
    function known(ws) { return ws.filter(function (w) { return hasPrefix(w); }); }
    function add(ws, inTitle) { tries.push({ input: ws.join(" "), inTitle: !!inTitle }); }
    // Chinese that is a synonym the index carries is asked for whole (no words are marked then:
    // the key stands only in the worker's copy).
    var han = (a.han || []).map(function (run) { return tokenSet.has(hanKey(run)) ? hanKey(run) : run; });
    if (a.code) {
      var hit = found(a.candidates), args = known(a.args);
      if (hit) {
        add([hit.key].concat(args, han), true);
        add([hit.key], true);
        add(known(hit.parts).concat([hit.key], args, han));
        add(known(hit.parts).concat([hit.key]));
      }
      add(known(a.parts).concat(args, han));
      add(known(a.parts));
    } else {
      if (a.message && tokenSet.has(a.message)) add([a.message].concat(known(a.words)), true);
      var hits = a.ids.map(found).filter(Boolean), keys = [], parts = [];
      hits.forEach(function (h) { keys.push(h.key); parts.push.apply(parts, known(h.parts)); });
      add(known(a.words).concat(keys, han));
      add(known(a.words).concat(han));
      // A message paraphrased (a tutorial's Tensor<B, 2>: Module<B>): its identifiers alone.
      add(keys.concat(han), true);
      add(parts.concat(keys, han));
    }
    // Last, the query as typed (and an empty one as it is: it empties the list).
    add([String(raw)]);
    var seen = {};
    return tries.filter(function (t, i) {
      var k = t.input + t.inTitle;
      if ((!t.input.trim() && i < tries.length - 1) || seen[k]) return false;
      return (seen[k] = true);
    });
  }

  // Zensical sorts each result's matches by field weight: the first is its best.
  function bestField(item) {
    return item.matches && item.matches[0] && item.matches[0].field;
  }

  function unescape(text) {
    return text.replace(/&(lt|gt|quot|#39|#x27|amp);/g, function (_, e) {
      return { lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", amp: "&" }[e];
    });
  }

  // Highlights that fall on the keys: the page's copy does not have them.
  function trimHighlights(result) {
    (result.items || []).forEach(function (item) {
      var o = original[item.id];
      if (!o) return;
      (item.matches || []).forEach(function (m) {
        var h = m.value && m.value.highlight;
        if (h && h.ranges && m.field in o) {
          h.ranges = h.ranges.filter(function (r) { return r.end <= o[m.field]; });
        }
      });
    });
    return result;
  }

  // --------------------------------------------------------------------- starting the engine
  if (material) {
    // Material registers its message listener as it loads: keep it, and call it ourselves.
    var listeners = [];
    var addListener = self.addEventListener;
    self.addEventListener = function (type, fn) {
      if (type === "message") listeners.push(fn);
      else addListener.apply(self, arguments);
    };
    importScripts(engine);
    self.addEventListener = addListener;
    // lunr 2.3.9's TokenSet.toString keys a trie node by its edges, writing each label and the
    // id of the node it leads to with nothing between them: "1"→52,"3"→4 and "1"→5,"2"→34 both
    // give "15234". minimize() then merges nodes that differ, the index's word set yields words
    // the index does not hold, and a query that expands to one fails: "Cannot read properties of
    // undefined (reading '_index')". In this book, full of numbers, that was every query with a
    // 0 or a 4. Quoting each label makes the key unambiguous.
    self.lunr.TokenSet.prototype.toString = function () {
      if (this._str) return this._str;
      var str = this.final ? "1" : "0";
      var labels = Object.keys(this.edges).sort();
      for (var i = 0; i < labels.length; i++) str += JSON.stringify(labels[i]) + this.edges[labels[i]].id;
      this._str = str;
      return str;
    };
    var usePlan = materialSetup();
    addListener.call(self, "message", function (ev) {
      var msg = ev.data, done = null;
      if (msg && msg.type === SETUP) setConfig(msg.data && msg.data.config);
      // Material answers a query within this call (no await before its search), so the plan
      // is there exactly while it searches.
      if (msg && msg.type === QUERY && typeof msg.data === "string") done = usePlan(msg.data);
      try {
        listeners.forEach(function (fn) { fn.call(self, { data: msg }); });
      } finally {
        if (done) done();
      }
    });
  } else {
    importScripts(engine);
    var handle = self.onmessage;
    var post = self.postMessage;
    var capture = null;
    // Every answer leaves with the highlights on the keys taken out; while a query tries its
    // inputs, the answers stay here.
    self.postMessage = function (m) {
      if (capture) return capture(m);
      if (m && m.type === RESULT) trimHighlights(m.data);
      return post.apply(self, arguments);
    };
    self.onmessage = function (ev) {
      var msg = ev.data;
      if (!msg || msg.type !== QUERY || !msg.data || typeof msg.data.input !== "string" || msg.data.page) {
        if (msg && msg.type === SETUP) { setConfig(msg.data.config); zensicalSetup(msg.data); }
        return handle.call(self, { data: msg });
      }
      // Zensical answers within this call too: the first input that finds something is posted.
      // Its search box hands over the query HTML-escaped (Tensor&lt;B, 2&gt;).
      var inputs = zensicalInputs(unescape(msg.data.input)), answer = null, first = null;
      function ask(input) {
        answer = null;
        handle.call(self, { data: { type: QUERY, data: Object.assign({}, msg.data, { input: input }) } });
        return answer && answer.type === RESULT && answer.data.items || [];
      }
      capture = function (m) { answer = m; };
      try {
        for (var i = 0, done = false; i < inputs.length && !done; i++) {
          var items = ask(inputs[i].input);
          done = items.length > 0 && (!inputs[i].inTitle || bestField(items[0]) === "title");
          if (items.length && first === null) first = inputs[i].input;
        }
        // None found it in a title: the first that found anything, asked again (Zensical keeps
        // the last answer for the reader's "more results").
        if (!done && first !== null) ask(first);
      } finally {
        capture = null;
      }
      if (answer) self.postMessage(answer);
    };
  }
})();
