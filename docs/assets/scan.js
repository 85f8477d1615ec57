/* 「扫描你的脚本」: finds every torch call in a pasted PyTorch script and matches it against the
 * rows of the torch → burn map. One program for the page (map.js loads it on docs/scan.md only)
 * and for `make scan` (book/commands/scan.py runs `node scan.js --rules R FILE`).
 *
 * It reads tokens, not a parse tree, so a syntax error is reported with its line and the rest
 * is still scanned. Its knowledge is the rules file (book/pages/scan_rules.py builds it from
 * the manifests and the pitfall pages; the page fetches it on the first scan): which rows
 * declare each spelling, how each row's own PyTorch text calls it, the pitfall pages' `scan:`
 * entries and the alias table. How a call selects rows is written out in docs/scan.md. */
(function () {
  'use strict';

  // ------------------------------------------------------------------ tokens
  const OPS = ['**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '==', '!=', '<=', '>=',
    '<<', '>>', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=',
    '(', ')', '[', ']', '{', '}', ',', ':', '.', ';', '@', '=', '+', '-', '*', '/', '%', '<', '>',
    '&', '|', '^', '~', '!'];
  const OPS_BY = {};  // by first character, longest first
  for (const o of OPS) (OPS_BY[o[0]] = OPS_BY[o[0]] || []).push(o);
  const PREFIX = new Set('rRbBuUfF');
  const IDENT_START = /[\p{L}_]/u;
  const CLOSER = { '(': ')', '[': ']', '{': '}' };
  // A line starting with one of these at or left of the open statement ends an unclosed bracket.
  const STARTERS = new Set(['def', 'class', 'import', 'from', 'return', 'if', 'elif', 'else', 'for',
    'while', 'with', 'try', 'except', 'finally', 'raise', 'assert', 'del', 'pass', 'break',
    'continue', 'global', 'nonlocal', 'async']);
  const NAME = /[\p{L}_][\p{L}\p{N}_]*/uy;
  const NUM = /(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?[jJ]?)/y;
  const STRSTART = /([rRbBuUfF]{0,3})('''|"""|'|")/y;

  function tokenize(src, lineBase, errors, posBase) {
    const toks = [], stack = [], base = posBase || 0;
    let i = 0, line = lineBase || 1, lineStart = 0, stmtIndent = 0, fresh = true;
    const err = (ln, msg) => errors.push({ line: ln, message: msg });
    const push = (k, v, start) => {
      const t = { k, v, line, col: start - lineStart, pos: base + start };
      if (fresh && k !== 'nl') { stmtIndent = t.col; fresh = false; }
      toks.push(t);
      return t;
    };
    const newline = () => {
      if (!stack.length && toks.length && toks[toks.length - 1].k !== 'nl') { push('nl', '', i); fresh = true; }
    };
    while (i < src.length) {
      const c = src[i];
      if (c === '\n') { newline(); i++; line++; lineStart = i; atLineStart(); continue; }
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f') { i++; continue; }
      if (c === '#') { while (i < src.length && src[i] !== '\n') i++; continue; }
      if (c === '\\' && src[i + 1] === '\n') { i += 2; line++; lineStart = i; continue; }
      let m;
      // A string, maybe after a prefix (f"…", rb'…'): only these letters can start one.
      if (c === '"' || c === "'" || (PREFIX.has(c) && /['"rRbBuUfF]/.test(src[i + 1] || ''))) {
        STRSTART.lastIndex = i;
        if ((m = STRSTART.exec(src))) { readString(m); continue; }
      }
      if (IDENT_START.test(c)) {
        NAME.lastIndex = i;
        if ((m = NAME.exec(src))) { push('name', m[0], i); i += m[0].length; continue; }
      }
      if ((c >= '0' && c <= '9') || (c === '.' && src[i + 1] >= '0' && src[i + 1] <= '9')) {
        NUM.lastIndex = i;
        if ((m = NUM.exec(src))) { push('num', m[0], i); i += m[0].length; continue; }
      }
      const op = (OPS_BY[c] || []).find(o => o.length === 1 || src.startsWith(o, i));
      if (op) {
        if (op === ';' && !stack.length) { push('nl', ';', i); fresh = true; i++; continue; }
        if (CLOSER[op]) stack.push({ ch: op, line });
        if (op === ')' || op === ']' || op === '}') {
          if (!stack.length) err(line, `多了一个「${op}」：前面没有和它配对的括号`);
          else {
            const open = stack.pop();
            if (CLOSER[open.ch] !== op) err(line, `括号不配对：第 ${open.line} 行的「${open.ch}」在这里被「${op}」关上`);
          }
        }
        push('op', op, i); i += op.length; continue;
      }
      err(line, `看不懂的字符「${c}」`);
      i++;
    }
    newline();
    for (const b of stack) err(b.line, `「${b.ch}」没有闭合`);
    return toks;

    // Inside brackets, a line that starts a new statement left of the open one closes them all.
    function atLineStart() {
      if (!stack.length) return;
      let j = i, col = 0;
      while (src[j] === ' ' || src[j] === '\t') { j++; col++; }
      NAME.lastIndex = j;
      const w = NAME.exec(src);
      if (w && STARTERS.has(w[0]) && col <= stmtIndent) {
        for (const b of stack) err(b.line, `「${b.ch}」没有闭合（到第 ${line} 行还没有关上）`);
        stack.length = 0;
        if (toks.length && toks[toks.length - 1].k !== 'nl') { push('nl', '', i); fresh = true; }
      }
    }

    function readString(m) {
      const start = i, q = m[2], prefix = m[1].toLowerCase(), startLine = line;
      let j = i + m[0].length, body = '', closed = false;
      while (j < src.length) {
        // A backslash keeps the next character in the string, raw strings too (r"\"" is one).
        if (src[j] === '\\') { if (src[j + 1] === '\n') { line++; lineStart = j + 2; } body += src[j] + (src[j + 1] || ''); j += 2; continue; }
        if (src.startsWith(q, j)) { closed = true; j += q.length; break; }
        if (src[j] === '\n') {
          if (q.length === 1) break;
          line++; lineStart = j + 1;
        }
        body += src[j]; j++;
      }
      const t = push('str', body, start);
      t.line = startLine;
      if (!closed) {
        err(startLine, '字符串没有结束');
        if (q.length === 3) { j = src.indexOf('\n', start); j = j < 0 ? src.length : j; line = startLine; }
      }
      if (prefix.includes('f')) t.fields = fields(body, startLine, base + start + m[0].length);
      i = j;
      if (!closed && q.length === 3) { lineStart = src.lastIndexOf('\n', j - 1) + 1; }
    }

    // The replacement fields of an f-string, each tokenized on its own: calls inside count.
    function fields(body, startLine, at) {
      const out = [];
      let k = 0, ln = startLine;
      while (k < body.length) {
        if (body[k] === '\n') ln++;
        if (body.startsWith('{{', k)) { k += 2; continue; }
        if (body[k] !== '{') { k++; continue; }
        let depth = 0, e = k + 1, quote = null;
        for (; e < body.length; e++) {
          const ch = body[e];
          if (quote) { if (ch === quote) quote = null; continue; }
          if (ch === '"' || ch === "'") quote = ch;
          else if ('([{'.includes(ch)) depth++;
          else if (')]'.includes(ch) || (ch === '}' && depth > 0)) depth--;
          else if (ch === '}' || (depth === 0 && (ch === ':' || (ch === '!' && body[e + 1] !== '=')))) break;
        }
        const sub = tokenize(body.slice(k + 1, e), ln, errors, at + k + 1).filter(t => t.k !== 'nl');
        if (sub.length) out.push(sub);
        k = body.indexOf('}', e) < 0 ? body.length : body.indexOf('}', e) + 1;
      }
      return out;
    }
  }

  // ------------------------------------------------------------------ types
  const TENSOR = { k: 'tensor' }, PARAMS = { k: 'params' }, PY = { k: 'py' };
  const BUILTINS = new Set(['len', 'range', 'int', 'float', 'str', 'list', 'dict', 'set', 'tuple',
    'sorted', 'min', 'max', 'sum', 'abs', 'round', 'print', 'open', 'enumerate', 'zip',
    'isinstance', 'super', 'next', 'iter', 'type', 'getattr', 'setattr', 'hasattr', 'map', 'filter',
    'any', 'all', 'repr', 'format', 'bool', 'id', 'hash', 'input', 'vars', 'dir', 'reversed',
    'divmod', 'pow', 'ord', 'chr', 'hex', 'callable', 'issubclass', 'frozenset', 'bytes', 'object']);
  // Tensor methods whose result is a Python value, not a tensor.
  const PY_RESULT = new Set(['item', 'tolist', 'numpy', 'size', 'dim', 'numel', 'backward',
    'element_size', 'stride', 'is_contiguous', 'nelement', 'data_ptr', 'get_device', 'ndimension']);
  // Module methods that return the module itself.
  const SELF_RESULT = new Set(['to', 'train', 'eval', 'cuda', 'cpu', 'half', 'float', 'double',
    'bfloat16', 'requires_grad_', 'apply', 'type', 'zero_grad', 'manual_seed']);
  const TENSOR_ATTRS = new Set(['weight', 'bias', 'data', 'grad', 'T', 'mT', 'H', 'real', 'imag']);
  const PY_ATTRS = new Set(['shape', 'device', 'dtype', 'ndim', 'is_cuda', 'requires_grad', 'is_leaf']);
  // torch functions (second path segment) that do not return a tensor.
  const NOT_TENSOR = new Set(['load', 'save', 'device', 'no_grad', 'inference_mode', 'enable_grad',
    'set_grad_enabled', 'autocast', 'compile', 'manual_seed', 'cuda', 'backends', 'onnx', 'jit',
    'distributed', 'amp', 'optim', 'utils', 'is_tensor', 'get_num_threads', 'set_num_threads',
    'set_default_dtype', 'get_default_dtype', 'set_printoptions', 'use_deterministic_algorithms',
    'Size', 'dtype', 'finfo', 'iinfo', 'hub', 'multiprocessing', 'random', 'testing', 'profiler']);
  const PY_KEYWORDS = new Set(['and', 'as', 'assert', 'async', 'break', 'class', 'continue', 'def',
    'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is',
    'nonlocal', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);
  const GENERIC = { module: 'nn.Module.', optim: 'torch.optim.Optimizer.', gen: 'torch.Generator.' };

  // ------------------------------------------------------------------ one script
  function scan(src, rules) {
    const errors = [];
    src = src.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
    const toks = tokenize(src, 1, errors);
    toks.push({ k: 'end', v: '', line: toks.length ? toks[toks.length - 1].line + 1 : 1, col: 0, pos: src.length });
    const known = new Set(Object.keys(rules.spell));
    for (const e of rules.scan) known.add(e.call);
    const vars = new Map(), classes = new Map(), stars = [], scopes = [], found = [];
    let T = toks, i = 0;
    const peek = (o) => T[i + (o || 0)] || T[T.length - 1];
    const is = (v, o) => { const t = peek(o); return (t.k === 'op' || t.k === 'name') && t.v === v; };
    const err = (t, msg) => errors.push({ line: t.line, message: msg });

    while (peek().k !== 'end') statement();
    return report(found, errors, rules, src);

    // ---------------------------------------------------------------- names
    function normalize(path) {
      for (const [old, now] of rules.aliases) {
        if (path === old || path.startsWith(old + '.')) return now + path.slice(old.length);
      }
      return path;
    }
    function isTorch(p) { return p === 'torch' || p.startsWith('torch.'); }
    function currentClass() {
      for (let k = scopes.length - 1; k >= 0; k--) if (scopes[k].kind === 'class') return scopes[k].cls;
      return null;
    }
    function instanceOf(cls) {
      const c = classes.get(cls);
      if (!c) return null;
      return c.base === 'module' ? { k: 'umod', cls } : c.base === 'data' ? { k: 'udata', cls } : null;
    }
    function lookup(name) {
      if (name === 'self' && currentClass()) return { ty: instanceOf(currentClass()) };
      if (vars.has(name)) return Object.assign({}, vars.get(name));
      if (classes.has(name)) return { ty: { k: 'ucls', cls: name } };
      for (const s of stars) if (known.has(normalize(s + '.' + name))) return { path: s + '.' + name };
      if (BUILTINS.has(name)) return { builtin: name };
      return {};
    }
    function userMethod(cls, name) {
      for (let c = classes.get(cls); c; c = classes.get(c.parent)) if (c.methods.has(name)) return true;
      return false;
    }
    function hasAttr(cls, name) {
      for (let c = classes.get(cls); c; c = classes.get(c.parent)) if (c.attrs.has(name)) return true;
      return false;
    }
    function classAttr(cls, name) {
      for (let c = classes.get(cls); c; c = classes.get(c.parent)) if (c.attrs.has(name)) return c.attrs.get(name);
      return null;
    }

    // ---------------------------------------------------------------- statements
    function statement() {
      const first = peek();
      if (first.k === 'nl') { i++; return; }
      while (scopes.length && scopes[scopes.length - 1].indent >= first.col) scopes.pop();
      const w = first.k === 'name' ? first.v : null;
      if (w === 'async' && (is('def', 1) || is('for', 1) || is('with', 1))) i++;
      const kw = peek().k === 'name' ? peek().v : null;
      if (is('@')) { i++; expr(); return endLine(); }
      if (kw === 'import') { i++; importNames(); return endLine(); }
      if (kw === 'from') { i++; fromImport(); return endLine(); }
      if (kw === 'class') return classDef(first.col);
      if (kw === 'def') return funcDef(first.col);
      if (kw === 'if' || kw === 'elif' || kw === 'while') { i++; expr(); return header(first); }
      if (kw === 'else' || kw === 'try' || kw === 'finally') { i++; return header(first); }
      if (kw === 'except') { i++; if (!is(':')) { expr(); if (is('as')) { i += 2; } } return header(first); }
      if (kw === 'for') { i++; const tg = targetList('in'); if (is('in')) i++; bindIter(tg, exprList().ty); return header(first); }
      if (kw === 'with') {
        i++;
        // with (open(a) as f, open(b) as g): the parentheses group the items (Python 3.10).
        const grouped = is('(') && itemsHaveAs();
        if (grouped) i++;
        do { const v = expr(); if (is('as')) { i++; bind(targetAtom(), v); } } while (is(',') && ++i && !is(')'));
        if (grouped && is(')')) i++;
        return header(first);
      }
      // match / case are keywords only at the head of a line that ends with a colon.
      if ((kw === 'match' || kw === 'case') && endsWithColon() && !(peek(1).k === 'op' && /^[=.(,[:]$|^[-+*/%@&|^]?=$/.test(peek(1).v))) {
        i++; exprList(); return header(first);
      }
      if (kw === 'pass' || kw === 'break' || kw === 'continue') { i++; return endLine(); }
      if (kw === 'global' || kw === 'nonlocal') { while (peek().k !== 'nl' && peek().k !== 'end') i++; return endLine(); }
      if (kw === 'return' || kw === 'yield' || kw === 'raise' || kw === 'assert' || kw === 'del') {
        i++; if (is('from')) i++;
        if (peek().k !== 'nl' && peek().k !== 'end') exprList();
        if (is('from')) { i++; expr(); }  // raise E from None
        return endLine();
      }
      simple();
      endLine();
    }
    function itemsHaveAs() {
      for (let k = i + 1, depth = 0; k < T.length; k++) {
        const t = T[k];
        if (t.k === 'nl' || t.k === 'end') return false;
        if (t.k === 'op' && CLOSER[t.v]) depth++;
        else if (t.k === 'op' && (t.v === ')' || t.v === ']' || t.v === '}')) { if (depth === 0) return false; depth--; }
        else if (depth === 0 && t.k === 'name' && t.v === 'as') return true;
      }
      return false;
    }
    function endsWithColon() {
      let k = i;
      while (T[k + 1] && T[k + 1].k !== 'nl' && T[k + 1].k !== 'end') k++;
      return T[k].k === 'op' && T[k].v === ':';
    }
    function header(first) {
      if (!is(':')) {
        err(first, `「${first.v}」这一行应当以冒号结尾`);
        return skipLine();
      }
      i++;
      if (peek().k !== 'nl' && peek().k !== 'end') { simple(); }
      endLine();
    }
    function endLine() {
      if (peek().k === 'nl' || peek().k === 'end') { if (peek().k === 'nl') i++; return; }
      err(peek(), `这一行在「${peek().v}」处多出了看不懂的写法`);
      skipLine();
    }
    function skipLine() {
      while (peek().k !== 'nl' && peek().k !== 'end') i++;
      if (peek().k === 'nl') i++;
    }
    function simple() {
      const lists = [exprList()];
      let aug = false;
      while (is('=') || (peek().k === 'op' && /^[-+*/%@&|^]=$|^\*\*=$|^\/\/=$|^>>=$|^<<=$/.test(peek().v))) {
        aug = peek().v !== '=';
        i++;
        lists.push(exprList());
      }
      if (is(':') && lists.length === 1) {  // an annotation: x: int = 3
        i++; expr();
        if (is('=')) { i++; lists.push(exprList()); }
      }
      if (lists.length < 2 || aug) return;
      const value = lists[lists.length - 1];
      for (const tgt of lists.slice(0, -1)) bind(tgt.target, value, value.elems);
    }
    function importNames() {
      do {
        const path = dotted();
        if (is('as')) { i++; const as = peek().v; i++; vars.set(as, isTorch(path) ? { path } : { ty: PY }); }
        else { const root = path.split('.')[0]; vars.set(root, isTorch(root) ? { path: root } : { ty: PY }); }
      } while (is(',') && ++i);
    }
    function fromImport() {
      let dots = '';
      while (is('.') || is('...')) { dots += peek().v; i++; }
      const mod = is('import') ? '' : dotted();
      if (is('import')) i++;
      const torch = !dots && isTorch(mod);
      if (is('*')) { i++; if (torch) stars.push(mod); return; }
      const paren = is('(');
      if (paren) i++;
      while (peek().k === 'name') {
        const name = peek().v; i++;
        let as = name;
        if (is('as')) { i++; as = peek().v; i++; }
        vars.set(as, torch ? { path: mod + '.' + name } : { ty: PY });
        if (!is(',')) break;
        i++;
      }
      if (paren && is(')')) i++;
    }
    function dotted() {
      let s = '';
      while (peek().k === 'name') { s += peek().v; i++; if (is('.')) { s += '.'; i++; } else break; }
      return s;
    }
    function classDef(indent) {
      i++;
      const name = peek().k === 'name' ? peek().v : null;
      if (!name) { err(peek(), 'class 后面应当是类名'); return skipLine(); }
      i++;
      const cls = { base: null, parent: null, methods: new Set(), attrs: new Map() };
      classes.set(name, cls);
      if (is('(')) {
        const a = args(peek());
        for (const b of a.values) {
          const p = b.path ? normalize(b.path) : '';
          if (p === 'nn.Module' || p.endsWith('.Module')) cls.base = 'module';
          else if (/^torch\.utils\.data\.(Iterable)?Dataset$/.test(p)) cls.base = 'data';
          else if (b.ty && b.ty.k === 'ucls') { cls.parent = b.ty.cls; cls.base = cls.base || (classes.get(b.ty.cls) || {}).base; }
        }
      }
      scopes.push({ indent, kind: 'class', cls: name });
      header({ v: 'class', line: peek().line });
    }
    function funcDef(indent) {
      i++;
      const name = peek().k === 'name' ? peek().v : null;
      if (!name) { err(peek(), 'def 后面应当是函数名'); return skipLine(); }
      i++;
      const cls = scopes.length && scopes[scopes.length - 1].kind === 'class' ? scopes[scopes.length - 1].cls : null;
      if (cls) classes.get(cls).methods.add(name);
      else vars.set(name, { ty: { k: 'fn', name } });
      const params = [];
      if (is('(')) {
        const open = peek(); i++;
        while (!is(')') && peek().k !== 'end' && peek().k !== 'nl') {
          if (is('*') || is('**') || is('/')) { i++; continue; }
          if (peek().k === 'name') { params.push(peek().v); i++; }
          if (is(':')) { i++; expr(); }
          if (is('=')) { i++; expr(); }
          if (is(',')) i++;
          else if (!is(')')) { err(peek(), `def ${name} 的参数列表里有看不懂的写法`); break; }
        }
        if (is(')')) i++; else err(open, `def ${name} 的参数列表没有闭合`);
      }
      if (is('->')) { i++; expr(); }
      scopes.push({ indent, kind: 'def', cls });
      // A parameter is whatever the caller passes: unknown, not the type the same name had
      // elsewhere in the file; forward's are the module's inputs, tensors.
      const forward = cls && name === 'forward' && classes.get(cls).base === 'module';
      for (const p of params.slice(cls ? 1 : 0)) vars.set(p, forward ? { ty: TENSOR } : {});
      header({ v: 'def', line: peek().line });
    }

    // ---------------------------------------------------------------- binding
    function bind(target, v, elems) {
      if (!target) return;
      if (target.tuple) {
        const spread = v && (v.ty === TENSOR || (v.ty && v.ty.k === 'data')) ? v.ty : null;
        target.tuple.forEach((t, k) => bind(t, elems && elems[k] ? elems[k] : { ty: spread }));
        return;
      }
      const val = { path: v && v.path, ty: v && v.ty };
      if (target.name) vars.set(target.name, val);
      else if (target.selfAttr && currentClass()) classes.get(currentClass()).attrs.set(target.selfAttr, val.ty);
    }
    function elementOf(ty) {
      if (!ty) return null;
      if (ty === TENSOR || ty === PARAMS || ty.k === 'data' || ty.k === 'udata' || (ty.k === 'obj' && ty.g === 'data')) return TENSOR;
      return ty === PY ? PY : null;
    }
    function bindIter(target, ty) {
      if (ty && ty.k === 'enum' && target && target.tuple) {
        bind(target.tuple[0], { ty: PY });
        target.tuple.slice(1).forEach(t => bindIter(t, ty.of));
        return;
      }
      const el = elementOf(ty);
      const walk = t => { if (!t) return; if (t.tuple) t.tuple.forEach(walk); else bind(t, { ty: el }); };
      walk(target);
    }
    function targetList(stop) {
      const items = [];
      do { items.push(targetAtom()); } while (is(',') && ++i && !is(stop));
      return items.length === 1 ? items[0] : { tuple: items };
    }
    function targetAtom() {
      if (is('(') || is('[')) {
        const close = CLOSER[peek().v]; i++;
        const items = [];
        while (!is(close) && peek().k !== 'end') { items.push(targetAtom()); if (is(',')) i++; else break; }
        if (is(close)) i++;
        return { tuple: items };
      }
      if (is('*')) i++;
      const v = primary();
      return v.target || null;
    }

    // ---------------------------------------------------------------- expressions
    function exprList() {
      const first = expr();
      if (!is(',')) return first;
      const elems = [first];
      while (is(',')) { i++; if (endOfList()) break; elems.push(expr()); }
      return { ty: PY, elems, target: { tuple: elems.map(e => e.target) }, lit: 'x' };
    }
    function endOfList() {
      const t = peek();
      return t.k === 'nl' || t.k === 'end' || (t.k === 'op' && [')', ']', '}', '=', ':'].includes(t.v)) || (t.k === 'name' && t.v === 'in');
    }
    function expr(noTernary) {
      if (is('lambda')) {
        i++;
        while (!is(':') && peek().k !== 'nl' && peek().k !== 'end') { if (is('=')) { i++; expr(true); } else i++; }
        if (is(':')) i++;
        expr(noTernary);
        return { ty: null, lit: 'x' };
      }
      const parts = [unary()];
      for (;;) {
        const t = peek();
        if (t.k === 'op' && /^(\*\*|\/\/|==|!=|<=|>=|<<|>>|:=|[-+*/%@<>&|^])$/.test(t.v)) { i++; parts.push(unary()); continue; }
        if (t.k === 'name' && (t.v === 'and' || t.v === 'or' || t.v === 'in' || t.v === 'is')) { i++; if (is('not')) i++; parts.push(unary()); continue; }
        if (t.k === 'name' && t.v === 'not' && is('in', 1)) { i += 2; parts.push(unary()); continue; }
        if (!noTernary && t.k === 'name' && t.v === 'if') {
          i++; parts.push(expr(true));
          if (is('else')) { i++; parts.push(expr()); }
          continue;
        }
        break;
      }
      if (parts.length === 1) return parts[0];
      const tys = parts.map(p => p.ty);
      const ty = tys.some(x => x === TENSOR) ? TENSOR : tys.every(x => x === PY) ? PY : null;
      return { ty, lit: 'x' };
    }
    function unary() {
      if (peek().k === 'op' && ['-', '+', '~'].includes(peek().v)) {
        i++;
        const v = unary();
        return { ty: v.ty, lit: v.lit === 'num' ? 'num' : 'x' };
      }
      if (is('not')) { i++; unary(); return { ty: PY, lit: 'x' }; }
      if (is('await')) { i++; return unary(); }
      if (is('*') || is('**')) { i++; return unary(); }
      return primary();
    }
    function primary() {
      const t = peek();
      let v;
      if (t.k === 'name' && PY_KEYWORDS.has(t.v)) { err(t, `这里的「${t.v}」看不懂`); i++; return { ty: null, lit: 'x' }; }
      if (t.k === 'name') {
        i++;
        if (t.v === 'True' || t.v === 'False') v = { ty: PY, lit: 'b:' + t.v };
        else if (t.v === 'None') v = { ty: PY, lit: 'none' };
        else {
          v = lookup(t.v);
          v.target = { name: t.v };
          v.nameTok = t;
          v.dotted = v.path || t.v;
        }
      } else if (t.k === 'num') { i++; v = { ty: PY, lit: 'num' }; }
      else if (t.k === 'str') {
        let body = '';
        while (peek().k === 'str') {
          const s = peek(); i++; body += s.v;
          for (const f of s.fields || []) sub(f);
        }
        v = { ty: PY, lit: 's:' + body };
      } else if (t.k === 'op' && CLOSER[t.v]) {
        v = bracket(t);
      } else if (is('...')) { i++; v = { ty: PY, lit: 'x' }; }
      else {
        if (t.k !== 'nl' && t.k !== 'end') { err(t, `这里的「${t.v}」看不懂`); i++; }
        return { ty: null, lit: 'x' };
      }
      v.start = t.pos;
      return trailers(v);
    }
    function sub(tokens) {  // an f-string's field, parsed in its own token list
      const saved = [T, i];
      T = tokens.concat([{ k: 'end', v: '', line: tokens[tokens.length - 1].line, col: 0, pos: 0 }]);
      i = 0;
      while (peek().k !== 'end') { const before = i; exprList(); if (i === before) i++; else if (is(',') || is(':')) i++; }
      [T, i] = saved;
    }
    function trailers(v) {
      for (;;) {
        if (is('.') && peek(1).k === 'name') {
          const nameTok = peek(1); i += 2;
          v = attr(v, nameTok);
        } else if (is('(')) {
          v = call(v, peek());
        } else if (is('[')) {
          const open = peek();
          bracket(open);
          v = { ty: subscript(v.ty), lit: 'x', start: v.start };
        } else return v;
      }
    }
    function attr(v, nameTok) {
      const name = nameTok.v;
      const out = { recv: v, member: name, nameTok, start: v.start, lit: 'x' };
      if (v.path) { out.path = v.path + '.' + name; out.dotted = out.path; return out; }
      if (v.dotted) out.dotted = v.dotted + '.' + name;
      const ty = v.ty;
      if (v.target && v.target.name === 'self' && currentClass()) out.target = { selfAttr: name };
      if (ty === PY) out.ty = PY;
      else if (ty && (ty.k === 'umod' || ty.k === 'udata')) out.ty = classAttr(ty.cls, name) || (TENSOR_ATTRS.has(name) ? TENSOR : null);
      else if (ty === TENSOR) out.ty = PY_ATTRS.has(name) ? PY : TENSOR;
      else out.ty = TENSOR_ATTRS.has(name) ? TENSOR : null;
      return out;
    }
    function subscript(ty) {
      return ty === TENSOR ? TENSOR : null;  // a dict's or a list's item: could be anything
    }
    // The items between brackets; a comprehension's clauses are read before its element, so
    // that the element's names have their types.
    function bracket(open) {
      const close = CLOSER[open.v];
      i++;
      const forAt = topLevelFor(close);
      const items = [];
      if (forAt >= 0) {
        const startAt = i;
        i = forAt;
        comprehension(close);
        const endAt = i;
        i = startAt;
        const el = expr();
        if (is(':')) { i++; expr(); }
        i = endAt;
        if (is(close)) i++;
        return { ty: close === ')' ? null : PY, lit: 'x', elems: null, gen: el };
      }
      let comma = false, colon = false;
      while (!is(close) && peek().k !== 'end' && peek().k !== 'nl') {
        if (is('*') || is('**')) i++;
        const v = is(':') ? { ty: null, lit: 'x' } : expr();
        while (is(':')) { colon = true; i++; if (!is(',') && !is(close) && !is(':')) expr(); }
        items.push(v);
        if (is(',')) { comma = true; i++; } else break;
      }
      if (is(close)) i++;
      else if (peek().k !== 'end' && peek().k !== 'nl') { err(peek(), `「${open.v}」里在「${peek().v}」处少了逗号或括号`); }
      if (close === ')' && items.length === 1 && !comma) return Object.assign({}, items[0], { start: open.pos });
      if (close === '}' && colon) {
        const keys = items.filter(x => x.lit && x.lit.startsWith('s:')).map(x => x.lit.slice(2));
        return { ty: PY, lit: 'dict', keys };
      }
      if (items.length && items.every(x => x.lit === 'dict')) {
        const sets = items.map(x => new Set(x.keys));
        return { ty: PY, lit: 'dlist', keys: [...sets[0]].filter(k => sets.every(s => s.has(k))) };
      }
      return { ty: PY, lit: 'x', elems: items, target: { tuple: items.map(x => x.target) } };
    }
    function topLevelFor(close) {
      let depth = 0;
      for (let k = i; k < T.length; k++) {
        const t = T[k];
        if (t.k === 'end' || (t.k === 'nl' && depth === 0)) return -1;
        if (t.k === 'op' && CLOSER[t.v]) depth++;
        else if (t.k === 'op' && (t.v === ')' || t.v === ']' || t.v === '}')) { if (depth === 0) return -1; depth--; }
        else if (depth === 0 && t.k === 'name' && t.v === 'for') return k;
      }
      return -1;
    }
    function comprehension(close) {
      while (is('for') || is('async')) {
        if (is('async')) i++;
        i++;
        const tg = targetList('in');
        if (is('in')) i++;
        const it = expr(true);
        bindIter(tg, it.ty);
        while (is('if')) { i++; expr(true); }
      }
      if (!is(close) && peek().k !== 'end') err(peek(), `「${peek().v}」这里看不懂`);
    }
    // Arguments of a call: what the matcher needs to know about them.
    function args(open) {
      i++;
      const a = { pos: 0, kw: {}, n: 0, disp: [], posLits: [], values: [], dotted: [], groupKeys: [] };
      const forAt = topLevelFor(')');
      if (forAt >= 0) {
        i--; const v = bracket(peek());
        a.pos = 1; a.n = 1; a.posLits.push('x'); a.values.push(v);
        return a;
      }
      while (!is(')') && peek().k !== 'end') {
        if (peek().k === 'nl') break;
        if (is('*') || is('**')) { i++; expr(); }
        else if (peek().k === 'name' && is('=', 1)) {
          const name = peek().v; i += 2;
          const v = expr();
          a.kw[name] = v.lit || 'x'; a.n++; a.values.push(v); a.dotted.push(dottedOf(v));
        } else {
          const v = expr();
          if (v.lit === 'dict' || v.lit === 'dlist') a.disp.push(a.pos);
          if (a.pos === 0 && v.lit === 'dlist') a.groupKeys = v.keys;
          a.posLits.push(v.lit || 'x'); a.pos++; a.n++; a.values.push(v); a.dotted.push(dottedOf(v));
        }
        if (is(',')) i++;
        else if (!is(')')) {
          if (peek().k !== 'nl' && peek().k !== 'end') err(peek(), `调用的参数在「${peek().v}」处少了逗号或括号`);
          break;
        }
      }
      if (is(')')) i++;
      else if (peek().k !== 'end' && peek().k !== 'nl') err(open, '调用的括号没有闭合');
      return a;
    }
    function dottedOf(v) {
      if (v.path) return normalize(v.path);
      if (v.lit && v.lit.startsWith('s:')) return v.lit.slice(2);
      return null;
    }
    function call(v, open) {
      const a = args(open);
      const close = T[i - 1];
      const at = v.nameTok || open;
      const rec = spelling => {
        const text = src.slice(v.start, close.pos + 1).replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/,\s*\)/g, ')');
        const entry = { pos: at.pos, line: at.line, col: at.col, text: text.length > 90 ? text.slice(0, 89) + '…' : text, args: a };
        found.push(Object.assign(entry, spelling));
      };
      const out = { start: v.start, lit: 'x' };
      if (v.path) {
        if (!isTorch(v.path)) { out.ty = PY; return out; }
        const s = normalize(v.path);
        rec({ call: s, cands: [s], byName: false });
        out.ty = resultOf(s);
        return out;
      }
      if (v.recv) {
        const r = v.recv.ty;
        // self.fc(x): a field holding a module, called; not a method of the model.
        if (r && (r.k === 'umod' || r.k === 'udata') && hasAttr(r.cls, v.member)) out.ty = callValue(v.ty);
        else out.ty = method(v.recv, v.member, rec);
        return out;
      }
      if (v.builtin) {
        const arg = a.values[0] || {};
        if (v.builtin === 'next' || v.builtin === 'iter') out.ty = elementOf(arg.ty) === TENSOR ? TENSOR : null;
        else if (v.builtin === 'enumerate') out.ty = { k: 'enum', of: arg.ty };
        else if (v.builtin === 'super' || v.builtin === 'zip' || v.builtin === 'getattr') out.ty = null;
        else out.ty = PY;
        return out;
      }
      out.ty = callValue(v.ty);
      return out;
    }
    function callValue(ty) {
      if (ty && ty.k === 'ucls') return instanceOf(ty.cls);
      if (ty && (ty.k === 'umod' || (ty.k === 'obj' && ty.g === 'module'))) return TENSOR;
      return null;
    }
    function resultOf(s) {
      const parts = s.split('.'), last = parts[parts.length - 1];
      if (/^[A-Z]/.test(last)) {
        if (s === 'nn.Parameter') return TENSOR;
        if (s === 'torch.device' || s === 'torch.Size' || s === 'torch.dtype') return PY;
        const g = s.startsWith('nn.') ? 'module' : s.startsWith('torch.optim.lr_scheduler.') ? 'sched'
          : s.startsWith('torch.optim.') ? 'optim' : s.startsWith('torch.utils.data.') ? 'data'
            : s === 'torch.Generator' ? 'gen' : 'other';
        return { k: 'obj', c: s, g };
      }
      if (s.startsWith('torch.utils.data.')) return { k: 'data' };
      if (s.startsWith('F.') || s.startsWith('nn.init.')) return TENSOR;
      if (parts[0] === 'torch' && parts.length >= 2 && !NOT_TENSOR.has(parts[1])) return TENSOR;
      if (s === 'torch.compile' || s === 'torch.jit.script') return { k: 'obj', c: s, g: 'module' };
      return null;
    }
    function method(recv, name, rec) {
      const ty = recv.ty;
      if (!ty) return byName(name, rec);
      if (ty === TENSOR) { rec({ call: 'Tensor.' + name, cands: ['Tensor.' + name], byName: false }); return PY_RESULT.has(name) ? PY : TENSOR; }
      if (ty.k === 'obj') {
        const g = GENERIC[ty.g] && known.has(GENERIC[ty.g] + name) ? GENERIC[ty.g] + name : null;
        const s = g || ty.c + '.' + name;
        rec({ call: s, cands: [s], byName: false, ctor: g ? null : ty.c, member: name });
        return moduleResult(ty, name);
      }
      if (ty.k === 'umod' || ty.k === 'udata') {
        if (name === 'forward') return TENSOR;
        if (userMethod(ty.cls, name)) return null;
        const s = (ty.k === 'umod' ? 'nn.Module.' : 'torch.utils.data.Dataset.') + name;
        if (ty.k === 'umod' || known.has(s)) rec({ call: s, cands: [s], byName: false });
        return ty.k === 'umod' ? moduleResult(ty, name) : null;
      }
      return ty === PY ? PY : null;
    }
    function moduleResult(ty, name) {
      if (SELF_RESULT.has(name) && ty.g !== 'optim') return ty;
      if (name === 'parameters' || name === 'named_parameters') return PARAMS;
      return null;
    }
    function byName(name, rec) {
      const cands = rules.prefixes.map(p => p + name).filter(s => known.has(s));
      if (!cands.length) return null;
      rec({ call: cands.join(' | '), cands, byName: true });
      if (cands.every(c => c.startsWith('Tensor.'))) return PY_RESULT.has(name) ? PY : TENSOR;
      return null;
    }
  }

  // ------------------------------------------------------------------ rows for one call
  const SEVERITY = { none: 3, differs: 2, same: 1 };
  const isLit = l => l && (l.startsWith('s:') || l.startsWith('b:') || l === 'none');
  function compatible(rowLit, userLit) {
    if (userLit === undefined) return false;
    if (isLit(rowLit)) return !isLit(userLit) && userLit !== 'num' ? true : rowLit === userLit;
    if (rowLit === 'num' && isLit(userLit)) return false;
    return true;
  }
  function conflicts(rowK, userKw) {
    return Object.keys(rowK).some(k => k in userKw && isLit(rowK[k]) && isLit(userKw[k]) && rowK[k] !== userKw[k]);
  }
  function formOf(s) {
    if (/^(Tensor|nn\.Module|torch\.optim\.Optimizer|torch\.Generator)\./.test(s)) return 'method';
    return /^[A-Z]/.test(s.split('.').pop()) ? 'module' : 'fn';
  }
  const comparable = (a, b) => a === b || (a !== 'module' && b !== 'module' && a && b);
  const norm = (form, n) => form === 'fn' ? n - 1 : n;

  function rowsFor(rules, spelling, a) {
    const entries = rules.spell[spelling] || [];
    const direct = entries.filter(([, x]) => x.kind !== 'mention');
    const use = direct.length ? direct : entries.map(([r]) => [r, { kind: 'mention', k: {}, pos: 0, n: 0, form: null, top: true, disp: [] }]);
    const kw = Object.assign({}, a.kw);
    for (const k of a.groupKeys || []) if (!(k in kw)) kw[k] = 'x';
    // A default row (default_adam_eps) may have no call in its text: it is still about the call.
    const main = use.filter(([r]) => !rules.rows[r].d), defs = entries.filter(([r]) => rules.rows[r].d);
    // Keywords that tell the rows of this spelling apart: not written by every row, or
    // written with different literal values.
    const seen = {};
    for (const [, x] of main) for (const k of Object.keys(x.k || {})) (seen[k] = seen[k] || []).push(x.k[k]);
    const dist = new Set(Object.keys(seen).filter(k => seen[k].length < main.length || new Set(seen[k].filter(isLit)).size > 1));
    const dispOk = x => (x.disp || []).every(p => a.disp.includes(p));
    const uf = formOf(spelling);
    const matched = [], plain = [];
    for (const [r, x] of main) {
      if (!dispOk(x)) continue;
      const req = Object.keys(x.k || {}).filter(k => dist.has(k));
      if (!req.length) { plain.push([r, x]); continue; }
      const missing = req.filter(k => !(k in kw));
      let ok = req.every(k => !(k in kw) || compatible(x.k[k], kw[k]));
      // One keyword left out, written as a literal, and one positional argument more than the row
      // (x.argmax(-1) for x.argmax(dim=1)): that argument is it. torch.f(x, …) has the input
      // first where x.f(…) does not.
      const shift = uf === 'fn' && x.form === 'method' ? 1 : uf === 'method' && x.form === 'fn' ? -1 : 0;
      const lone = missing.length === 1 && x.k[missing[0]] !== 'x';
      if (ok && lone && a.pos === x.pos + 1 + shift) ok = compatible(x.k[missing[0]], a.posLits[x.pos + shift]);
      else if (missing.length) ok = false;
      if (ok) matched.push([r, x, req]);
    }
    let chosen = matched.filter(([, , q]) => !matched.some(([, , q2]) => q2.length > q.length && q.every(k => q2.includes(k))));
    chosen.sort((p, q) => q[2].length - p[2].length || p[0] - q[0]);
    if (!chosen.length) {
      const un = norm(uf, a.n);
      const comp = plain.filter(([, x]) => comparable(uf, x.form)).map(([r, x]) => [r, x, norm(x.form, x.n)]);
      const below = comp.filter(c => c[2] <= un), above = comp.filter(c => c[2] > un);
      const tier = below.length ? below.filter(c => c[2] === Math.max(...below.map(b => b[2])))
        : above.filter(c => c[2] === Math.min(...above.map(b => b[2])));
      const keep = new Set(tier.map(c => c[0]));
      chosen = plain.filter(([r, x]) => keep.has(r) || !comparable(uf, x.form));
    }
    const list = chosen.map(([r, x]) => ({ r, top: x.top !== false, def: false }));
    const mainKeys = new Set(Object.keys(seen));
    for (const [r, x] of defs) {
      const row = rules.rows[r];
      if (row.v !== 'differs' && !row.p) continue;
      if (x.kind !== 'mention' && (a.pos > x.pos || Object.keys(x.k).some(k => !compatible(x.k[k], kw[k])))) continue;
      const about = x.about || [];
      if (about.some(n => n in kw)) continue;
      const relevant = about.filter(n => mainKeys.has(n)).every(n => main.some(([, y]) => n in (y.k || {}) && !conflicts(y.k, kw)));
      if (relevant) list.push({ r, top: true, def: true });
    }
    const fixes = new Set(list.filter(e => !e.def).map(e => rules.rows[e.r].f).filter(Boolean));
    return list.filter(e => !fixes.has(rules.rows[e.r].a));
  }

  function matchCall(rules, c) {
    let list = [];
    if (c.ctor) list = ((rules.methods[c.ctor] || {})[c.member] || []).map(r => ({ r, top: true }));
    else for (const s of c.cands) for (const e of rowsFor(rules, s, c.args)) if (!list.some(x => x.r === e.r)) list.push(e);
    const primary = list.some(e => e.top) ? list.filter(e => e.top) : list;
    const rows = list.map(e => rules.rows[e.r]);
    let verdict = null;
    for (const e of primary) { const v = rules.rows[e.r].v; if (!verdict || SEVERITY[v] > SEVERITY[verdict]) verdict = v; }
    const pits = new Set(primary.map(e => rules.rows[e.r].p).filter(Boolean));
    for (const e of rules.scan) if (c.cands.includes(e.call) && scanHolds(e, c.args)) pits.add(e.page);
    return { rows: rows.length ? rows.map(r => r.a) : null, verdict, pitfalls: [...pits].sort() };
  }
  function scanHolds(e, a) {
    if (e.has && !(e.has in a.kw)) return false;
    for (const [k, want] of Object.entries(e.eq || {})) {
      const got = a.kw[k];
      if (!got || !(got === 's:' + want || got === 'b:' + (want === true ? 'True' : want === false ? 'False' : want))) return false;
    }
    if (e.arg && !a.dotted.includes(e.arg)) return false;
    return true;
  }

  function report(found, errors, rules, src) {
    found.sort((p, q) => p.line - q.line || p.pos - q.pos);
    const calls = found.map(c => Object.assign({ line: c.line, text: c.text, call: c.call, by_name: c.byName }, matchCall(rules, c)));
    const count = { calls: calls.length, same: 0, differs: 0, none: 0, unknown: 0, by_name: 0 };
    const pits = new Map();
    for (const c of calls) {
      count[c.verdict || 'unknown']++;
      if (c.by_name) count.by_name++;
      for (const p of c.pitfalls) pits.set(p, (pits.get(p) || 0) + 1);
    }
    const pitfalls = [...pits].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1))
      .map(([page, n]) => ({ page, title: rules.pitfalls[page] || page, calls: n }));
    errors.sort((p, q) => p.line - q.line);
    const seen = new Set();
    const errs = errors.filter(e => { const k = e.line + e.message; if (seen.has(k)) return false; seen.add(k); return true; });
    return { summary: Object.assign(count, { lines: src.split('\n').length, errors: errs.length, pitfalls }),
      calls, errors: errs };
  }

  const api = { tokenize: (s) => tokenize(s, 1, []), scan, version: 1 };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  if (typeof window !== 'undefined') { window.BookScan = api; }
  if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) cli();

  function cli() {
    const fs = require('fs');
    const argv = process.argv.slice(2);
    const at = argv.indexOf('--rules');
    if (at < 0 || argv.length !== 3) { process.stderr.write('用法：node scan.js --rules RULES.json SCRIPT.py\n'); process.exit(2); }
    const rules = JSON.parse(fs.readFileSync(argv[at + 1], 'utf8'));
    const file = argv.filter((_, k) => k !== at && k !== at + 1)[0];
    process.stdout.write(JSON.stringify(scan(fs.readFileSync(file, 'utf8'), rules)) + '\n');
  }

  // ------------------------------------------------------------------ the page
  const WORD = { same: '相同', differs: '不同', none: 'burn 0.22.1 没有' };
  const esc = s => String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  // Rows past this many are folded under the first ones (torch.load selects many).
  const SHOWN_ROWS = 3;

  function render(rep, rules, base) {
    const byAnchor = new Map(rules.rows.map(r => [r.a, r]));
    const s = rep.summary;
    // The row's verdict is shown by scan.css from data-word: one element per row.
    const rowLink = a => {
      const r = byAnchor.get(a);
      return `<a class="scan-row" data-verdict="${r.v}" data-word="${WORD[r.v]}" href="${esc(base)}reference/#${esc(a)}">${esc(r.t)}</a>`;
    };
    const pitLink = p => `<a href="${esc(base)}${esc(p)}/">${esc(rules.pitfalls[p] || p)}</a>`;
    let h = `<div class="scan-summary"><p><strong>${s.calls}</strong> 个 torch 调用：相同 <strong>${s.same}</strong>，` +
      `不同 <strong>${s.differs}</strong>，burn 0.22.1 没有 <strong>${s.none}</strong>，对照表里没有 <strong>${s.unknown}</strong>` +
      `（按名字认出的 ${s.by_name} 个）。</p>`;
    if (s.pitfalls.length) {
      h += '<p>先读这些坑：</p><ol class="scan-pitfalls">' +
        s.pitfalls.map(p => `<li>${pitLink(p.page)}（${p.calls} 处）</li>`).join('') + '</ol>';
    }
    if (rep.errors.length) {
      h += `<p class="scan-errors-lead">语法错误 ${rep.errors.length} 处（其余部分照常扫描了）：</p><ul class="scan-errors">` +
        rep.errors.map(e => `<li>第 ${e.line} 行：${esc(e.message)}</li>`).join('') + '</ul>';
    }
    h += '</div>';
    if (!rep.calls.length) return h + '<p>没有找到 torch 的调用。</p>';
    // One block per call, not a table: a block off screen is not laid out until it is
    // scrolled to (scan.css: content-visibility), so a long script's report shows at once.
    h += '<div class="scan-calls" role="table" aria-label="每个 torch 调用"><div class="scan-call scan-head" role="row">' +
      ['行', '调用', '结果', '对照表的行', '坑'].map(x => `<span role="columnheader">${x}</span>`).join('') + '</div>';
    for (const c of rep.calls) {
      const rows = c.rows || [];
      let cell = rows.length ? rows.slice(0, SHOWN_ROWS).map(rowLink).join('') : '—';
      if (rows.length > SHOWN_ROWS) {
        cell += `<details><summary>另外 ${rows.length - SHOWN_ROWS} 行</summary>${rows.slice(SHOWN_ROWS).map(rowLink).join('')}</details>`;
      }
      h += `<div class="scan-call" role="row" data-verdict="${c.verdict || 'unknown'}"><span class="scan-line" role="cell">${c.line}</span>` +
        `<div role="cell"><code>${esc(c.text)}</code><div class="scan-spelling${c.by_name ? ' scan-byname' : ''}">${esc(c.call)}</div></div>` +
        `<span class="scan-verdict" role="cell">${c.verdict ? WORD[c.verdict] : '对照表里没有'}</span><div role="cell">${cell}</div>` +
        `<div role="cell">${c.pitfalls.map(pitLink).join('<br>')}</div></div>`;
    }
    h += '</div>';
    const unknown = rep.calls.filter(c => !c.rows);
    if (unknown.length) {
      h += `<p class="scan-unknown-lead">对照表里没有的调用（${unknown.length} 个）：</p><ul class="scan-unknown">` +
        unknown.map(c => `<li>第 ${c.line} 行 <code>${esc(c.text)}</code>（${esc(c.call)}）</li>`).join('') + '</ul>';
    }
    return h;
  }

  function page() {
    const box = document.getElementById('book-scan');
    if (!box || box.dataset.ready) return;
    box.dataset.ready = '1';
    const form = box.querySelector('.scan-form'), input = box.querySelector('textarea');
    const button = box.querySelector('button'), out = box.querySelector('.scan-report');
    box.querySelectorAll('.scan-nojs').forEach(e => { e.hidden = true; });
    form.hidden = false;
    let rules = null, runs = 0;
    button.addEventListener('click', async () => {
      button.disabled = true;
      out.textContent = '扫描中…';
      try {
        // The rules come with the first scan only: the page's first view stays light.
        if (!rules) {
          const res = await fetch(box.dataset.rules);
          if (!res.ok) throw new Error(`规则文件 ${res.status}`);
          rules = await res.json();
        }
        const t0 = performance.now();
        const rep = scan(input.value, rules);
        out.innerHTML = render(rep, rules, box.dataset.base || '');
        api.last = rep;
        api.ms = performance.now() - t0;
      } catch (e) {
        out.textContent = '扫描失败：' + e.message;
      } finally {
        button.disabled = false;
        out.dataset.runs = String(++runs);
      }
    });
  }

  if (typeof document !== 'undefined') {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', page); else page();
    // Material's instant navigation (when a site turns it on) swaps pages without a load.
    if (window.document$ && window.document$.subscribe) window.document$.subscribe(page);
  }
})();
