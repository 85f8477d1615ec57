// Material's search worker (named in ?material=), with one lunr 2.3.9 bug fixed before the
// first message arrives. lunr's TokenSet.toString keys a trie node by its edges, writing each
// label and the id of the node it leads to with nothing between them: label "1" to node 52
// and label "15" ... cannot happen, but "1"→52,"3"→4 and "1"→5,"2"→34 both give "15234".
// minimize() then merges nodes that differ, the index's word set yields words the index
// does not hold, and a query that expands to one fails: "Cannot read properties of undefined
// (reading '_index')". In this book, full of numbers, that was every query with a 0 or a 4.
// Quoting each label makes the key unambiguous. (Material's own "../lunr" imports resolve
// against this file's folder, which is the original worker's.)
importScripts(new URL(location.href).searchParams.get("material"));
self.lunr.TokenSet.prototype.toString = function () {
  if (this._str) return this._str;
  var str = this.final ? "1" : "0";
  var labels = Object.keys(this.edges).sort();
  for (var i = 0; i < labels.length; i++) {
    str += JSON.stringify(labels[i]) + this.edges[labels[i]].id;
  }
  this._str = str;
  return str;
};
