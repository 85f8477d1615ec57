/* 「扫描你的脚本」: finds every torch call in a pasted PyTorch script and matches it against the
 * rows of the torch → burn map. One program for the page (map.js loads it on docs/scan.md only)
 * and for `make scan` (book/commands/scan.py runs `node scan.js --rules R --parser P FILE`).
 *
 * It walks the script's syntax tree from @lezer/python, a parser that recovers from errors, so
 * a syntax error is reported with its line and the rest is still scanned. The parser is
 * assets/pyparse.js (book/site/pyparse.py): the page loads it when the reader first focuses the box or scans, node is given
 * the same file (--parser, or useParser). Its knowledge is the rules file (book/pages/scan_rules.py
 * builds it from the manifests and the pitfall pages; the page fetches it with the parser):
 * which rows declare each spelling, how each row's own PyTorch text calls it, the pitfall pages'
 * `scan:` entries, the alias table, the positional order of some calls and the names of torch's
 * dtypes. How a call selects rows is written out in docs/scan.md. */
(function () {
  'use strict';

  let parser = null;
  // The module assets/pyparse.js defines ({parser}), or its parser.
  function useParser(p) { parser = p.parser || p; }

  // ------------------------------------------------------------------ the tree
  // An unclosed """ runs to the end of the file: read it as a string ending with its line (the
  // positions stay the same), so that it is reported once and the lines after it are scanned.
  function parse(src) {
    for (;;) {
      const tree = parser.parse(src);
      let s = tree.resolveInner(src.length, -1);
      while (s && s.name !== 'String' && s.name !== 'FormatString') s = s.parent;
      const q = s && /^[A-Za-z]*("""|''')/.exec(src.slice(s.from, s.to));
      if (!q || closed(src, s)) return { tree, src };
      const at = s.from + q[0].length - 3;
      src = src.slice(0, at + 1) + '  ' + src.slice(at + 3);
    }
  }
  function closed(src, s) {
    const t = src.slice(s.from, s.to), q = /^[A-Za-z]*("""|'''|"|')/.exec(t), last = s.lastChild;
    if (!q) return true;
    if (last && (last.type.isError || (last.name === 'Escape' && last.to === s.to))) return false;  // "abc\"
    return t.length >= q[0].length + q[1].length && t.endsWith(q[1]);
  }

  const CLOSER = { '(': ')', '[': ']', '{': '}' };
  const COMPOUND = new Set(['if', 'elif', 'else', 'for', 'while', 'def', 'class', 'with', 'try',
    'except', 'finally', 'match', 'case']);
  const cut = s => s.length > 20 ? s.slice(0, 19) + '…' : s;
  const opener = p => { for (let c = p.firstChild; c; c = c.nextSibling) if (c.name in CLOSER) return c; return null; };

  // The parser's error nodes (⚠) as lines a reader can act on. Its recovery can leave several
  // for one mistake: only the first on a line counts, an empty one right after a reported one
  // is the same mistake, and after any error its reading of the indentation is not to be trusted.
  function syntaxErrors(tree, src, lineOf) {
    const out = [];
    let after = -1;
    const add = e => { if (!out.some(o => o.line === e.line)) out.push(e); };
    tree.iterate({ enter(n) {
      if ((n.name === 'String' || n.name === 'FormatString') && !closed(src, n.node)) {
        add({ line: lineOf(n.from), message: '字符串没有结束' });
      }
      if (!n.type.isError) return;
      const e = n.node, blank = !src.slice(e.from, e.to).trim();
      if (gap(e) || withParens(e, src)) return false;
      if (blank && after >= 0 && !src.slice(after, e.from).trim()) return false;
      const r = explain(e, src, lineOf);
      if (r.indent && out.length) return false;
      after = e.to;
      add({ line: r.line, message: r.message });
      return false;
    } });
    return out;
  }
  // Valid Python that @lezer/python reads as an error: `100.` and `0.` (a number, a dot and a
  // missing attribute), and a bare `yield`.
  function gap(e) {
    const before = e.prevSibling, num = before && before.prevSibling;
    if (e.from !== e.to || !before) return false;
    if (before.name === 'yield') return true;
    return e.parent.name === 'MemberExpression' && before.name === '.' && num && num.name === 'Number' && num.to === before.from;
  }
  // with (open(a) as f, open(b) as g): Python 3.10's parenthesized items, unknown to the parser.
  function withParens(e, src) {
    for (let p = e.parent; p; p = p.parent) {
      if (p.name !== 'WithStatement') continue;
      const body = p.getChild('Body');
      return (!body || e.from < body.from) && /^(async\s+)?with\s*\(/.test(src.slice(p.from, p.to));
    }
    return false;
  }
  function explain(e, src, lineOf) {
    const line = lineOf(e.from), what = src.slice(e.from, e.to).trim();
    const say = message => ({ line, message });
    if (/^[)\]}]$/.test(what)) {
      const o = opener(e.parent);
      if (o && CLOSER[o.name] !== what) return say(`括号不配对：第 ${lineOf(o.from)} 行的「${o.name}」在这里被「${what}」关上`);
      return say(`多了一个「${what}」：前面没有和它配对的括号`);
    }
    if (what) return say(/^[^\p{L}\p{N}_\s]$/u.test(what) ? `看不懂的字符「${what}」` : `这里的「${cut(what)}」看不懂`);
    // Something missing here: a closing bracket, a colon, the rest of the line.
    for (let p = e.parent; p; p = p.parent) {
      const o = opener(p);
      if (o && (!p.lastChild || p.lastChild.name !== CLOSER[o.name])) {
        const at = lineOf(o.from), eof = !src.slice(e.from).trim();
        return { line: at, message: `「${o.name}」没有闭合` + (line > at && !eof ? `（到第 ${line} 行还没有关上）` : '') };
      }
    }
    const start = src.lastIndexOf('\n', e.from - 1) + 1, end = src.indexOf('\n', e.from);
    const rest = src.slice(e.from, end < 0 ? src.length : end).replace(/#.*/, '').trim();
    if (rest && !src.slice(start, e.from).trim()) return Object.assign(say('这一行的缩进和上面的代码块对不上'), { indent: true });
    const kw = /^\s*(?:async\s+)?([a-z]+)/.exec(src.slice(start, e.from));
    if (!rest && kw && COMPOUND.has(kw[1]) && /^Body$|Statement|Definition|Clause/.test(e.parent.name)) {
      return say(`「${kw[1]}」这一行应当以冒号结尾`);
    }
    return say(rest ? `这一行在「${cut(rest)}」处多出了看不懂的写法` : '这一行没有写完');
  }

  // ------------------------------------------------------------------ types
  const TENSOR = { k: 'tensor' }, PARAMS = { k: 'params' }, PY = { k: 'py' };
  // Modules that hold modules by name: an attribute of theirs is one of those.
  const CONTAINERS = new Set(['nn.ModuleDict', 'nn.ModuleList', 'nn.Sequential']);
  // The legacy typed constructors make a tensor, not an object of their own class.
  const LEGACY_TENSORS = new Set(['torch.Tensor', 'torch.FloatTensor', 'torch.DoubleTensor', 'torch.HalfTensor',
    'torch.LongTensor', 'torch.IntTensor', 'torch.ShortTensor', 'torch.ByteTensor', 'torch.BoolTensor']);
  // named_parameters() and the like: (name, tensor) pairs; the name is a str, not a tensor.
  const NAMED = { k: 'named' };
  const WEIGHT_TYING = '10-pitfalls/weight-tying';
  // str methods torch.Tensor does not have (checked against torch 2.15's Tensor): on a receiver
  // the scan took for a tensor they say it is a str, and are never reported as Tensor methods.
  const STR_ONLY = new Set(('endswith startswith lower upper strip lstrip rstrip join format encode decode isdigit ' +
    'isalpha isalnum isspace splitlines partition rpartition capitalize title zfill ljust rjust center casefold ' +
    'replace find rfind rindex removeprefix removesuffix format_map expandtabs swapcase translate islower ' +
    'isupper istitle isnumeric isdecimal isidentifier isprintable isascii').split(' '));
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
  const GENERIC = { module: 'nn.Module.', optim: 'torch.optim.Optimizer.', gen: 'torch.Generator.' };

  // ------------------------------------------------------------------ one script
  function scan(text, rules) {
    if (!parser && typeof window !== 'undefined' && window.BookPyParse) useParser(window.BookPyParse);
    if (!parser) throw new Error('没有 Python 解析器：先加载 assets/pyparse.js（node：--parser 或 useParser）');
    const { tree, src } = parse(text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n'));
    const starts = [0];
    for (let k = src.indexOf('\n'); k >= 0; k = src.indexOf('\n', k + 1)) starts.push(k + 1);
    const lineOf = pos => {
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= pos) lo = mid; else hi = mid - 1; }
      return lo + 1;
    };
    const errors = syntaxErrors(tree, src, lineOf);
    const known = new Set(Object.keys(rules.spell));
    for (const e of rules.scan) known.add(e.call);
    const vars = new Map(), classes = new Map(), stars = [], scopes = [], found = [], statements = [];
    const str = n => src.slice(n.from, n.to);
    const kids = n => { const out = []; for (let c = n.firstChild; c; c = c.nextSibling) out.push(c); return out; };

    block(tree.topNode);
    return report(found, errors, rules, starts.length, statements);

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
    function userReturn(cls, name) {
      for (let c = classes.get(cls); c; c = classes.get(c.parent)) if (c.methods.has(name)) return (c.returns.get(name) || {}).ty || null;
      return null;
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
    function block(n) { for (let c = n.firstChild; c; c = c.nextSibling) statement(c); }
    function statement(n) {
      switch (n.name) {
        case 'AssignStatement': return assign(n);
        case 'ImportStatement': return importNames(n);
        case 'ClassDefinition': return classDef(n);
        case 'FunctionDefinition': return funcDef(n);
        case 'Decorator': return decorator(n);
        case 'ForStatement': return forLoop(n);
        case 'WithStatement': return withItems(n);
        case 'ReturnStatement': return returnStatement(n);
        // An if, a return, an expression, what the parser could not place: the calls in it.
        default: if (!expr(n)) block(n);
      }
    }
    // a = b = value, a, b = value, x: int = value: each list left of the last `=` is bound.
    function assign(n) {
      const lists = [[]];
      for (const k of kids(n)) {
        if (k.name === 'AssignOp') lists.push([]);
        else if (k.name === 'TypeDef') block(k);
        else lists[lists.length - 1].push(k);
      }
      tying(lists);
      const values = lists.map(seq);
      if (values.length < 2) return;
      const value = values[values.length - 1];
      for (const t of values.slice(0, -1)) bind(t.target, value, value.elems);
    }
    // a.weight = b.weight (or .bias), two modules' parameters: weight tying, a statement the
    // pitfall page is about though it calls nothing.
    function tying(lists) {
      if (lists.length !== 2 || lists[0].length !== 1 || lists[1].length !== 1) return;
      const [l, r] = [lists[0][0], lists[1][0]];
      const param = t => /^[A-Za-z_][\w.]*\.(weight|bias)$/.exec(t);
      if (l.name !== 'MemberExpression' || r.name !== 'MemberExpression') return;
      const a = param(str(l)), b = param(str(r));
      if (!a || !b || str(l) === str(r)) return;
      statements.push({ line: lineOf(l.from), text: str(l) + ' = ' + str(r), kind: 'weight_tying', pitfalls: [WEIGHT_TYING] });
    }
    function importNames(n) {
      const ks = kids(n), from = ks[0].name === 'from';
      let mod = '', relative = false, k = 1;
      if (from) {
        for (; k < ks.length && ks[k].name !== 'import'; k++) {
          if (ks[k].name === 'VariableName') mod += str(ks[k]);
          else if (ks[k].name === '.' && mod) mod += '.';
          else relative = true;
        }
        k++;
      }
      const torch = from && !relative && isTorch(mod);
      let path = '', as = null;
      for (; k <= ks.length; k++) {
        const c = ks[k];
        if (!c || c.name === ',') {
          if (from && path) vars.set(as || path, torch ? { path: mod + '.' + path } : { ty: PY });
          else if (as) vars.set(as, isTorch(path) ? { path } : { ty: PY });
          else if (path) { const root = path.split('.')[0]; vars.set(root, isTorch(root) ? { path: root } : { ty: PY }); }
          path = ''; as = null;
        } else if (c.name === '*') { if (torch) stars.push(mod); }
        else if (c.name === 'as') as = '';
        else if (c.name === 'VariableName') { if (as === '') as = str(c); else path += str(c); }
        else if (c.name === '.') path += '.';
      }
    }
    function classDef(n) {
      const nameNode = n.getChild('VariableName'), bases = n.getChild('ArgList'), body = n.getChild('Body');
      if (!nameNode) return block(n);
      const name = str(nameNode);
      const cls = { base: null, parent: null, methods: new Set(), attrs: new Map(), returns: new Map() };
      classes.set(name, cls);
      // The class's own methods, before its body is read: __init__ may call one defined further
      // down (self._set_model_config(), self.get_num_params()).
      for (const c of body ? kids(body) : []) {
        const def = c.name === 'DecoratedStatement' ? c.getChild('FunctionDefinition') : c.name === 'FunctionDefinition' ? c : null;
        const id = def && def.getChild('VariableName');
        if (id) cls.methods.add(str(id));
      }
      for (const b of bases ? args(bases).values : []) {
        const p = b.path ? normalize(b.path) : '';
        if (p === 'nn.Module' || p.endsWith('.Module')) cls.base = 'module';
        else if (/^torch\.utils\.data\.(Iterable)?Dataset$/.test(p)) cls.base = 'data';
        else if (b.ty && b.ty.k === 'ucls') { cls.parent = b.ty.cls; cls.base = cls.base || (classes.get(b.ty.cls) || {}).base; }
      }
      scopes.push({ kind: 'class', cls: name });
      if (body) block(body);
      scopes.pop();
    }
    function funcDef(n) {
      const nameNode = n.getChild('VariableName'), params = n.getChild('ParamList');
      const top = scopes[scopes.length - 1];
      const cls = top && top.kind === 'class' ? top.cls : null;
      const name = nameNode ? str(nameNode) : '';
      if (cls) classes.get(cls).methods.add(name);
      else vars.set(name, { ty: { k: 'fn', name, ret: null } });
      const names = [];
      for (let c = params && params.firstChild; c; c = c.nextSibling) {
        if (c.name === 'VariableName' && !(c.prevSibling && c.prevSibling.name === 'AssignOp')) names.push(str(c));
        else statement(c);  // annotations and defaults
      }
      for (const c of n.getChildren('TypeDef')) block(c);
      const scope = { kind: 'def', cls, returns: [] };
      scopes.push(scope);
      // A parameter is whatever the caller passes: unknown, not the type the same name had
      // elsewhere in the file; forward's are the module's inputs, tensors.
      const forward = cls && name === 'forward' && classes.get(cls).base === 'module';
      for (const p of names.slice(cls ? 1 : 0)) vars.set(p, forward ? { ty: TENSOR } : {});
      const body = n.getChild('Body');
      if (body) block(body);
      scopes.pop();
      // What it returns, where every return agrees (configure_optimizers returns an AdamW):
      // a call of it is that, not an unknown value.
      const ret = returned(scope.returns);
      if (cls) { if (ret) classes.get(cls).returns.set(name, ret); }
      else vars.set(name, { ty: { k: 'fn', name, ret } });
    }
    function returned(values) {
      if (!values.length) return null;
      const [v] = values, same = x => x.ty === v.ty || (x.ty && v.ty && x.ty.k === v.ty.k && x.ty.c === v.ty.c && x.ty.cls === v.ty.cls);
      // One tuple (return x.to(device), y.to(device)): its parts, for x, y = get_batch().
      if (values.length === 1 && v.elems) return { ty: PY, elems: v.elems.map(e => ({ ty: e.ty })) };
      if (!v.ty || v.ty === PY || !values.every(same)) return null;
      return { ty: v.ty };
    }
    function returnStatement(n) {
      const ks = kids(n).filter(k => k.name !== 'return');
      const v = ks.length ? seq(ks) : { ty: PY };
      for (let k = scopes.length - 1; k >= 0; k--) if (scopes[k].kind === 'def') { scopes[k].returns.push(v); break; }
    }
    // @torch.no_grad(): the parser reads a decorator as a dotted name, maybe called.
    function decorator(n) {
      let v = null, from = n.from;
      for (const c of kids(n)) {
        if (c.name === 'VariableName') { if (v) v = attr(v, c); else { v = name(c); from = c.from; } }
        else if (c.name === 'ArgList' && v) call(v, c, from);
      }
    }
    function forLoop(n) {
      const ks = kids(n), start = ks.findIndex(k => k.name === 'for'), mid = ks.findIndex(k => k.name === 'in');
      let body = ks.findIndex(k => k.name === 'Body');
      if (body < 0) body = ks.length;
      if (start < 0 || mid < start || mid > body) return block(n);
      const target = seq(ks.slice(start + 1, mid)).target;
      bindIter(target, seq(ks.slice(mid + 1, body)).ty);
      for (const k of ks.slice(body)) statement(k);
    }
    function withItems(n) {
      let v = null, as = false;
      for (const c of kids(n)) {
        if (c.name === 'as') as = true;
        else if (as && c.name === 'VariableName') { bind({ name: str(c) }, v); as = false; }
        else if (c.name === 'Body') block(c);
        else v = value(c) || v;
      }
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
      // groups = [{"params": …, "weight_decay": …}, …]: AdamW(groups) reads the groups' keys.
      if (v && (v.lit === 'dict' || v.lit === 'dlist')) Object.assign(val, { lit: v.lit, keys: v.keys });
      if (target.name) vars.set(target.name, val);
      else if (target.selfAttr && currentClass()) classes.get(currentClass()).attrs.set(target.selfAttr, val.ty);
    }
    function elementOf(ty) {
      if (!ty) return null;
      if (ty.k === 'list') return ty.of;
      if (ty === TENSOR || ty === PARAMS || ty.k === 'data' || ty.k === 'udata' || (ty.k === 'obj' && ty.g === 'data')) return TENSOR;
      return ty === PY ? PY : null;
    }
    function bindIter(target, ty) {
      if (ty === NAMED && target && target.tuple) {
        bind(target.tuple[0], { ty: PY });
        target.tuple.slice(1).forEach(t => bind(t, { ty: TENSOR }));
        return;
      }
      if (ty && ty.k === 'enum' && target && target.tuple) {
        bind(target.tuple[0], { ty: PY });
        target.tuple.slice(1).forEach(t => bindIter(t, ty.of));
        return;
      }
      const el = elementOf(ty);
      const walk = t => { if (!t) return; if (t.tuple) t.tuple.forEach(walk); else bind(t, { ty: el }); };
      walk(target);
    }

    // ---------------------------------------------------------------- expressions
    // What the scan knows of an expression: its type (ty), its literal (lit: num, s:…, b:True,
    // none, dict, dlist, x), its torch path, what assigning to it binds (target); null for a node
    // that is not an expression.
    function expr(n) {
      switch (n.name) {
        case 'VariableName': return name(n);
        case 'Boolean': return { ty: PY, lit: 'b:' + str(n) };
        case 'None': return { ty: PY, lit: 'none' };
        case 'Number': return { ty: PY, lit: numLit(str(n)) };
        case 'Ellipsis': return { ty: PY, lit: 'x' };
        case 'String': case 'FormatString': case 'ContinuedString': return string(n);
        case 'ParenthesizedExpression': return Object.assign({ ty: null, lit: 'x' }, all(n)[0]);
        case 'TupleExpression': case 'ArrayExpression': case 'SetExpression': return items(all(n));
        case 'DictionaryExpression': return dict(n);
        case 'ComprehensionExpression': case 'ArrayComprehensionExpression':
        case 'SetComprehensionExpression': case 'DictionaryComprehensionExpression': return comprehension(n);
        case 'CallExpression': return call(value(n.firstChild) || {}, n.lastChild, n.from);
        case 'MemberExpression': return member(n);
        case 'UnaryExpression': {
          const v = value(n.lastChild) || {}, op = str(n.firstChild);
          if (op === 'not') return { ty: PY, lit: 'x' };
          // -1 keeps its sign: ignore_index=-1 is not ignore_index=1.
          const lit = !isNum(v.lit) ? 'x' : op === '-' ? negate(v.lit) : op === '+' ? v.lit : 'x';
          return { ty: v.ty, lit };
        }
        case 'AwaitExpression': return value(n.lastChild) || { ty: null, lit: 'x' };
        case 'BinaryExpression': case 'ConditionalExpression': case 'NamedExpression': {
          const tys = all(n).map(p => p.ty);
          return { ty: tys.some(x => x === TENSOR) ? TENSOR : tys.every(x => x === PY) ? PY : null, lit: 'x' };
        }
        case 'LambdaExpression': case 'YieldExpression': block(n); return { ty: null, lit: 'x' };
        default: return null;
      }
    }
    // An expression, or the calls inside what the parser could not read.
    function value(n) {
      const v = expr(n);
      if (!v && n.type.isError) block(n);
      return v;
    }
    function all(n) { return kids(n).map(value).filter(Boolean); }
    // a, b: one value, or a tuple of them.
    function seq(nodes) {
      const vals = nodes.map(value).filter(Boolean);
      if (vals.length === 1 && !nodes.some(k => k.name === ',')) return vals[0];
      return { ty: PY, lit: 'x', elems: vals, target: { tuple: vals.map(v => v.target) } };
    }
    function name(n) {
      const v = lookup(str(n));
      v.target = { name: str(n) };
      v.nameTok = n;
      return v;
    }
    // A string's literal is its text between the quotes; an f-string's fields are read for calls.
    function string(n) {
      if (n.name === 'ContinuedString') {
        return { ty: PY, lit: 's:' + all(n).map(v => v.lit.slice(2)).join('') };
      }
      if (n.name === 'FormatString') block(n);  // its replacement fields
      const t = str(n), q = /^[A-Za-z]*("""|'''|"|')/.exec(t) || ['', ''];
      const body = t.slice(q[0].length, closed(src, n) ? t.length - q[1].length : t.length);
      return { ty: PY, lit: 's:' + body };
    }
    function items(vals) {
      if (vals.length && vals.every(x => x.lit === 'dict')) {
        const sets = vals.map(x => new Set(x.keys));
        return { ty: PY, lit: 'dlist', keys: [...sets[0]].filter(k => sets.every(s => s.has(k))) };
      }
      return { ty: PY, lit: 'x', elems: vals, target: { tuple: vals.map(x => x.target) } };
    }
    function dict(n) {
      const keys = [];
      for (const c of kids(n)) {
        const v = value(c), lit = (v && v.lit) || '';
        if (lit.startsWith('s:') && c.nextSibling && c.nextSibling.name === ':') keys.push(lit.slice(2));
      }
      return { ty: PY, lit: 'dict', keys };
    }
    // [f(x) for x in xs if …]: the clauses are read first, so that the element's names have
    // their types. Also a call's lone generator argument, sum(x for x in xs).
    function comprehension(n) {
      const ks = kids(n), start = ks.findIndex(k => k.name === 'for' || k.name === 'async');
      for (let j = start; j >= 0 && j < ks.length; j++) {
        if (ks[j].name === 'if' && ks[j + 1]) statement(ks[++j]);
        if (ks[j].name !== 'for') continue;
        const mid = ks.findIndex((k, m) => m > j && k.name === 'in');
        if (mid < 0) break;
        const target = seq(ks.slice(j + 1, mid)).target;
        bindIter(target, ks[mid + 1] ? (value(ks[mid + 1]) || {}).ty : null);
        j = mid + 1;
      }
      let el = null;
      for (const k of ks.slice(0, start < 0 ? ks.length : start)) el = value(k) || el;
      // [p for p in params if p.dim() >= 2]: a list of tensors, whose items are tensors.
      if (el && el.ty === TENSOR && n.name !== 'DictionaryComprehensionExpression') return { ty: { k: 'list', of: TENSOR }, lit: 'x' };
      return { ty: n.name === 'ComprehensionExpression' || n.name === 'ArgList' ? null : PY, lit: 'x' };
    }
    function member(n) {
      const obj = n.firstChild, dot = obj.nextSibling, prop = dot && dot.nextSibling;
      const v = value(obj) || {};
      // 100. or 1.e5: a float, read by the parser as a number and an attribute.
      if (obj.name === 'Number' && /^\d[\d_]*$/.test(str(obj)) && dot && dot.name === '.' && dot.from === obj.to) {
        return { ty: PY, lit: numLit(str(obj) + '.') };
      }
      if (dot && dot.name === '.' && prop && prop.name === 'PropertyName') return attr(v, prop);
      for (let c = dot; c; c = c.nextSibling) statement(c);  // a subscript: x[i], x[a:b]
      return { ty: subscript(v.ty), lit: 'x' };
    }
    function attr(v, nameTok) {
      const name = str(nameTok);
      const out = { recv: v, member: name, nameTok, lit: 'x' };
      if (v.path) {
        out.path = v.path + '.' + name;
        // dtype=torch.long: a value the rows can be told apart by (torch.long is torch.int64).
        if (v.path === 'torch') out.lit = Object.hasOwn(rules.dtypes, name) ? 'd:' + rules.dtypes[name] : 'x';
        return out;
      }
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
    // Arguments of a call: what the matcher needs to know about them.
    function args(list) {
      const a = { pos: 0, kw: {}, n: 0, disp: [], posLits: [], values: [], dotted: [], groupKeys: [], texts: [] };
      if (kids(list).some(c => c.name === 'for')) {
        a.pos = 1; a.n = 1; a.posLits.push('x'); a.values.push(comprehension(list));
        return a;
      }
      for (let c = list.firstChild; c; c = c.nextSibling) {
        if (c.name === '*' || c.name === '**') {
          if (c.name === '**') a.splat = true;  // **kwargs: any keyword may be there
          if (c.nextSibling) statement(c = c.nextSibling);
          continue;
        }
        const op = c.nextSibling;
        if (c.name === 'VariableName' && op && op.name === 'AssignOp') {
          c = op;  // x := v counts as the positional argument v
          if (str(op) !== '=') continue;
          const v = (op.nextSibling && value(c = op.nextSibling)) || {};
          a.kw[str(op.prevSibling)] = v.lit || 'x'; a.n++; a.values.push(v); a.dotted.push(dottedOf(v));
          continue;
        }
        const v = value(c);
        if (!v) continue;
        if (v.lit === 'dict' || v.lit === 'dlist') a.disp.push(a.pos);
        if (a.pos === 0 && v.lit === 'dlist') a.groupKeys = v.keys;
        a.posLits.push(v.lit || 'x'); a.pos++; a.n++; a.values.push(v); a.dotted.push(dottedOf(v));
        a.texts.push(str(c).replace(/\s+/g, ''));
      }
      return a;
    }
    function dottedOf(v) {
      if (v.path) return normalize(v.path);
      if (v.lit && v.lit.startsWith('s:')) return v.lit.slice(2);
      return null;
    }
    function call(v, list, from) {
      const a = args(list);
      const at = v.nameTok || list;
      const rec = spelling => {
        const text = src.slice(from, list.to).trim().replace(/,\s*\n\s*\)/g, ')').replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/\s+\)/g, ')');
        // (A trailing comma before a closing line goes; a one-element tuple (n,) keeps its comma.)
        const entry = { pos: at.from, line: lineOf(at.from), text: text.length > 90 ? text.slice(0, 89) + '…' : text, args: a };
        found.push(Object.assign(entry, spelling));
      };
      const out = { lit: 'x' };
      if (v.path) {
        if (!isTorch(v.path)) { out.ty = PY; return out; }
        const s = normalize(v.path);
        // AdamW(model.parameters(), …), clip_grad_norm_(model.parameters(), …), AdamW([{"params":
        // model.head.parameters(), …}]): the parameters handed to the call are part of it, not a
        // count of their own.
        if (a.values.some(x => x.ty === PARAMS) || (a.values[0] && a.values[0].lit === 'dlist' && a.disp.includes(0))) {
          for (let i = found.length - 1; i >= 0; i--) {
            const f = found[i];
            if (f.pos >= list.from && f.pos < list.to && /\.parameters$/.test(f.call)) found.splice(i, 1);
          }
        }
        rec({ call: s, cands: [s], byName: false });
        out.ty = resultOf(s);
        // torch.compile(model) hands back the model's own methods and attributes.
        const first = a.values[0];
        if (s === 'torch.compile' && first && first.ty && first.ty.k === 'umod') out.ty = first.ty;
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
      if (v.ty && v.ty.k === 'fn') {
        if (v.ty.ret) Object.assign(out, v.ty.ret);
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
        if (s === 'nn.Parameter' || LEGACY_TENSORS.has(s)) return TENSOR;
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
      if (!ty) return byName(name, rec, recv);
      if (ty === TENSOR && STR_ONLY.has(name)) return PY;
      if (ty === TENSOR) { rec({ call: 'Tensor.' + name, cands: ['Tensor.' + name], byName: false }); return PY_RESULT.has(name) ? PY : TENSOR; }
      if (ty.k === 'obj') {
        const g = GENERIC[ty.g] && known.has(GENERIC[ty.g] + name) ? GENERIC[ty.g] + name : null;
        // self.transformer.wte(idx) on an nn.ModuleDict: a module it holds, not a method of its own.
        if (!g && CONTAINERS.has(ty.c) && !known.has(ty.c + '.' + name)) return null;
        const s = g || ty.c + '.' + name;
        rec({ call: s, cands: [s], byName: false, ctor: g ? null : ty.c, member: name });
        return moduleResult(ty, name);
      }
      if (ty.k === 'umod' || ty.k === 'udata') {
        if (name === 'forward') return TENSOR;
        if (userMethod(ty.cls, name)) return userReturn(ty.cls, name);
        const s = (ty.k === 'umod' ? 'nn.Module.' : 'torch.utils.data.Dataset.') + name;
        if (ty.k === 'umod' || known.has(s)) rec({ call: s, cands: [s], byName: false });
        return ty.k === 'umod' ? moduleResult(ty, name) : null;
      }
      return ty === PY ? PY : null;
    }
    function moduleResult(ty, name) {
      if (SELF_RESULT.has(name) && ty.g !== 'optim') return ty;
      if (name === 'parameters') return PARAMS;
      if (name === 'named_parameters' || name === 'named_buffers') return NAMED;
      return null;
    }
    function byName(name, rec, recv) {
      let cands = rules.prefixes.map(p => p + name).filter(s => known.has(s));
      // A receiver of no known type with both a module's and an optimizer's method of this name
      // (state_dict, load_state_dict, zero_grad): its name says which (optimizer, opt → the
      // optimizer; model, net, raw_model → the module).
      const who = (recv && recv.target && (recv.target.name || recv.target.selfAttr)) || '';
      const opt = cands.filter(c => c.startsWith('torch.optim.Optimizer.')), mod = cands.filter(c => c.startsWith('nn.Module.'));
      if (opt.length && mod.length) cands = /optim|^opt(_|$)|_opt$/i.test(who) ? opt : mod;
      if (!cands.length) return null;
      rec({ call: cands.join(' | '), cands, byName: true });
      if (cands.every(c => c.startsWith('Tensor.'))) return PY_RESULT.has(name) ? PY : TENSOR;
      if (cands.every(c => c.startsWith('nn.Module.')) && (name === 'parameters' || name.startsWith('named_'))) return moduleResult({}, name);
      return null;
    }
  }

  // ------------------------------------------------------------------ rows for one call
  const SEVERITY = { none: 3, differs: 2, same: 1 };
  // Literals that must be equal for a row to fit: strings, booleans, None, dtypes.
  const isLit = l => l && (l.startsWith('s:') || l.startsWith('b:') || l.startsWith('d:') || l === 'none');
  // Numbers keep their sign and their kind: i:-1, f:0.25 (book/pages/scan_calls.py's number()).
  const isNum = l => /^[if]:/.test(l || '');
  const negative = l => l[2] === '-';
  function numLit(t) {
    t = t.replace(/_/g, '');
    if (/[jJ]$/.test(t)) return 'x';
    const int = /^(0[xXoObB][0-9a-fA-F]+|\d+)$/.test(t), v = Number(t);
    return Number.isNaN(v) ? 'x' : (int ? 'i:' : 'f:') + String(v);
  }
  const negate = l => l[0] + ':' + (negative(l) ? l.slice(3) : '-' + l.slice(2));
  // int, float, bool or complex: what a dtype makes, and what a row's own numbers are.
  const kindOf = l => !l ? null : isNum(l) ? l[0] : !l.startsWith('d:') ? null
    : /^d:(b?float)/.test(l) ? 'f' : /^d:u?int/.test(l) ? 'i' : l[2];
  // Keywords of a tensor factory that choose where and how, not what: no row needs to write them
  // for a call to count as its plain form (torch.arange(0, T, dtype=…, device=…) is arange(0, T)).
  const OPTIONS = new Set(['dtype', 'device', 'requires_grad', 'layout', 'pin_memory', 'memory_format', 'non_blocking']);
  function compatible(rowLit, userLit) {
    if (userLit === undefined) return false;
    if (isLit(rowLit)) return !isLit(userLit) && !isNum(userLit) ? true : rowLit === userLit;
    if (isNum(rowLit) && isLit(userLit)) return false;
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
  // torch.f(x, …) has the input first where x.f(…) does not: the row's positional index of the
  // call's argument i is i - shift.
  const shiftOf = (uf, rf) => uf === 'fn' && rf === 'method' ? 1 : uf === 'method' && rf === 'fn' ? -1 : 0;

  // Whether a row's when: holds for this call (scan_calls.conditions): false where the scan can
  // see it does not (num_samples=1 for num_samples > 1, no nn.LSTM in the script), true where it
  // sees every condition hold, null where it cannot tell.
  function holds(row, kw, ctx) {
    const cs = row.c;
    if (!cs || !cs.length) return null;
    const has = cs.filter(c => c.has);
    const got = has.length ? [has.some(c => calls(ctx, c.has))] : [];
    for (const c of cs) {
      if (!c.p) continue;
      const u = isNum(kw[c.p]) ? Number(kw[c.p].slice(2)) : null;
      got.push(u === null ? null : { '>': u > c.v, '>=': u >= c.v, '<': u < c.v, '<=': u <= c.v, '==': u === c.v, '!=': u !== c.v }[c.op]);
    }
    if (got.includes(false)) return false;
    return got.length && got.every(g => g === true) ? true : null;
  }

  // Whether the script calls a spelling that starts so (nn.BatchNorm: nn.BatchNorm2d), once a prefix.
  function calls(ctx, prefix) {
    if (!ctx.has.has(prefix)) ctx.has.set(prefix, [...ctx.called].some(s => s.startsWith(prefix)));
    return ctx.has.get(prefix);
  }

  // The numbers a row and the call both write for one parameter, {parameter: [row's, call's]}:
  // keywords by name, positional arguments by place (by name where the order is known).
  function numbers(x, a, uf, names, lone) {
    const out = new Map(), rk = x.k || {}, pl = x.pl || [], shift = shiftOf(uf, x.form);
    const put = (id, r, u) => { if (isNum(r) && isNum(u)) out.set(id, [r, u]); };
    for (const k of Object.keys(a.kw)) put(k, rk[k], a.kw[k]);
    a.posLits.forEach((u, i) => {
      if (names && i < names.length) put(names[i], rk[names[i]], u);
      else if (comparable(uf, x.form)) put('#' + i, pl[i - shift], u);
    });
    if (lone) put(lone.k, rk[lone.k], a.posLits[lone.i]);
    return out;
  }
  const agrees = ([r, u]) => negative(r) === negative(u) && r[0] === u[0];
  // Numbers keep their sign and their kind, int or float: where some rows write a number for a
  // parameter with the call's sign and kind, the rows that write one with another sign or kind
  // go (F.softmax(x, dim=-1): dim=-1, not dim=1; arange(0, T): arange(5), not arange(0., 1., 0.25)).
  // A row that writes a variable there, or nothing, stays.
  function sameSign(cands, pairsOf) {
    if (cands.length < 2) return cands;
    const ps = cands.map(pairsOf), keep = cands.map(() => true);
    for (const id of new Set(ps.flatMap(m => [...m.keys()]))) {
      if (!ps.some((m, i) => keep[i] && m.has(id) && agrees(m.get(id)))) continue;
      ps.forEach((m, i) => { if (m.has(id) && !agrees(m.get(id))) keep[i] = false; });
    }
    return cands.filter((_, i) => keep[i]);
  }
  // dtype=torch.long against rows that write no dtype: the kind of the row's own numbers
  // (torch.arange(5) makes ints, torch.arange(0., 1., 0.25) floats); rows of another kind go
  // where some row is of the dtype's.
  function sameDtype(cands, a) {
    const dt = a.kw.dtype;
    if (!dt || !dt.startsWith('d:')) return cands;
    const kind = ([, x]) => {
      if ('dtype' in (x.k || {})) return null;
      const nums = (x.pl || []).filter(isNum);
      return nums.some(l => l[0] === 'f') ? 'f' : nums.length ? 'i' : null;
    };
    const want = kindOf(dt);
    return cands.some(c => kind(c) === want) ? cands.filter(c => !kind(c) || kind(c) === want) : cands;
  }

  function rowsFor(rules, spelling, a, ctx) {
    const names = (rules.params || {})[spelling];
    const kw = Object.assign({}, a.kw);
    // nn.RNN(ninp, nhid, nlayers): where the map gives the parameter order, a positional argument
    // is the parameter at its place (num_layers), not a keyword the rows happen to write next.
    if (names) a.posLits.forEach((l, i) => { if (i < names.length && !(names[i] in kw)) kw[names[i]] = l; });
    for (const k of a.groupKeys || []) if (!(k in kw)) kw[k] = 'x';
    // Rows about a case the scan can see the script is not in are not this call's.
    const sure = new Set();
    const entries = (rules.spell[spelling] || []).filter(([r]) => {
      const h = holds(rules.rows[r], kw, ctx);
      if (h) sure.add(r);
      return h !== false;
    });
    const direct = entries.filter(([, x]) => x.kind !== 'mention');
    const use = direct.length ? direct : entries.map(([r]) => [r, { kind: 'mention', k: {}, pos: 0, n: 0, form: null, top: true, disp: [], pl: [] }]);
    // A default row (default_adam_eps) may have no call in its text: it is still about the call.
    const main = use.filter(([r]) => !rules.rows[r].d), defs = entries.filter(([r]) => rules.rows[r].d);
    // attn_mask=None is the default written out: not given, unless a row is about None itself.
    for (const k of Object.keys(kw)) if (kw[k] === 'none' && !entries.some(([, x]) => (x.k || {})[k] === 'none')) delete kw[k];
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
      const missing = a.splat ? [] : req.filter(k => !(k in kw));
      let ok = req.every(k => !(k in kw) || compatible(x.k[k], kw[k]));
      // Where the order is not known: one keyword left out, written as a literal, and one
      // positional argument more than the row (x.argmax(-1) for x.argmax(dim=1)): that argument is it.
      const at = x.pos + shiftOf(uf, x.form);
      const lone = !names && missing.length === 1 && x.k[missing[0]] !== 'x' && a.pos === at + 1 ? { k: missing[0], i: at } : null;
      if (ok && lone) ok = compatible(x.k[lone.k], a.posLits[lone.i]);
      else if (missing.length) ok = false;
      if (ok) matched.push([r, x, req, lone]);
    }
    const pairs = ([, x, , lone]) => numbers(x, a, uf, names, lone);
    // With **kwargs the keywords are unknown: every row of the call may be the one.
    let chosen = a.splat ? matched.slice() : matched.filter(([, , q]) => !matched.some(([, , q2]) => q2.length > q.length && q.every(k => q2.includes(k))));
    chosen = sameSign(sameDtype(chosen, a), pairs);
    chosen.sort((p, q) => q[2].length - p[2].length || p[0] - q[0]);
    if (!chosen.length && plain.length) {
      const near = sameSign(sameDtype(plain, a), pairs);
      // The call's own arguments, its where-and-how options aside unless a row writes them.
      const n = a.pos + Object.keys(a.kw).filter(k => !OPTIONS.has(k) || k in seen).length;
      const un = norm(uf, n);
      const comp = near.filter(([, x]) => comparable(uf, x.form)).map(([r, x]) => [r, x, norm(x.form, x.n)]);
      const below = comp.filter(c => c[2] <= un), above = comp.filter(c => c[2] > un);
      const tier = below.length ? below.filter(c => c[2] === Math.max(...below.map(b => b[2])))
        : above.filter(c => c[2] === Math.min(...above.map(b => b[2])));
      const keep = new Set(tier.map(c => c[0]));
      chosen = near.filter(([r, x]) => keep.has(r) || !comparable(uf, x.form));
    }
    const list = chosen.map(([r, x]) => ({ r, top: x.top !== false, def: false, sure: sure.has(r) }));
    const mainKeys = new Set(Object.keys(seen));
    for (const [r, x] of defs) {
      const row = rules.rows[r];
      if (row.v !== 'differs' && !row.p) continue;
      // More positional arguments than the row's, in an order not known: one of them may be it.
      if (x.kind !== 'mention' && ((!names && a.pos > x.pos) || Object.keys(x.k).some(k => !compatible(x.k[k], kw[k])))) continue;
      const about = x.about || [];
      if (about.some(n => n in kw)) continue;
      const relevant = about.filter(n => mainKeys.has(n)).every(n => main.some(([, y]) => n in (y.k || {}) && !conflicts(y.k, kw)));
      if (relevant) list.push({ r, top: true, def: true, sure: sure.has(r) });
    }
    const fixes = new Set(list.filter(e => !e.def).map(e => rules.rows[e.r].f).filter(Boolean));
    return list.filter(e => !fixes.has(rules.rows[e.r].a));
  }

  function matchCall(rules, c, anywhere, ctx) {
    let list = [];
    if (c.ctor) {
      list = ((rules.methods[c.ctor] || {})[c.member] || []).filter(r => holds(rules.rows[r], {}, ctx) !== false)
        .map(r => ({ r, top: true, sure: !!holds(rules.rows[r], {}, ctx) }));
      // A row may name the method itself (torch.optim.lr_scheduler.StepLR.step) without calling it.
      for (const e of rowsFor(rules, `${c.ctor}.${c.member}`, c.args, ctx)) if (!list.some(x => x.r === e.r)) list.push(e);
    } else for (const s of c.cands) for (const e of rowsFor(rules, s, c.args, ctx)) if (!list.some(x => x.r === e.r)) list.push(e);
    // Rows about a case (when: 几次 backward 才 step 一次时) the scan cannot see come after the
    // others and lend the call their verdict and pitfalls only where no other row matched; a case
    // it sees the script is in (模型里有 nn.LSTM 时, and there is one) counts as any row.
    const open = e => rules.rows[e.r].w && !e.sure;
    list = list.filter(e => !open(e)).concat(list.filter(open));
    const firm = list.filter(e => !open(e)), pool = firm.length ? firm : list;
    const primary = pool.some(e => e.top) ? pool.filter(e => e.top) : pool;
    const rows = list.map(e => rules.rows[e.r]);
    let verdict = null;
    for (const e of primary) { const v = rules.rows[e.r].v; if (!verdict || SEVERITY[v] > SEVERITY[verdict]) verdict = v; }
    const pits = new Set(primary.map(e => rules.rows[e.r].p).filter(Boolean));
    for (const e of rules.scan) {
      const own = e.unless && anywhere && (anywhere.get(e.unless) || []).includes((c.args.texts || [])[0]);
      if (c.cands.includes(e.call) && scanHolds(e, c.args) && !own) pits.add(e.page);
    }
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

  function report(found, errors, rules, lines, statements) {
    found.sort((p, q) => p.line - q.line || p.pos - q.pos);
    // Each spelling the script calls and the arguments it passes, as written: a scan: entry's
    // `unless` (torch.load of a file the script itself writes with torch.save) reads them.
    const anywhere = new Map();
    for (const c of found) for (const s of c.cands) anywhere.set(s, (anywhere.get(s) || []).concat(c.args.texts || []));
    // Every spelling the script calls: a row's when: 模型里有 nn.LSTM 时 looks here.
    const ctx = { called: new Set(found.flatMap(c => c.cands)), has: new Map() };
    const calls = found.map(c => Object.assign({ line: c.line, text: c.text, call: c.call, by_name: c.byName }, matchCall(rules, c, anywhere, ctx)));
    const count = { calls: calls.length, same: 0, differs: 0, none: 0, unknown: 0, by_name: 0 };
    const pits = new Map();
    for (const c of calls) {
      count[c.verdict || 'unknown']++;
      if (c.by_name) count.by_name++;
      for (const p of c.pitfalls) pits.set(p, (pits.get(p) || 0) + 1);
    }
    for (const st of statements) for (const p of st.pitfalls) pits.set(p, (pits.get(p) || 0) + 1);
    const pitfalls = [...pits].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1))
      .map(([page, n]) => ({ page, title: rules.pitfalls[page] || page, calls: n }));
    errors.sort((p, q) => p.line - q.line);
    const seen = new Set();
    const errs = errors.filter(e => { const k = e.line + e.message; if (seen.has(k)) return false; seen.add(k); return true; });
    return { summary: Object.assign(count, { lines, errors: errs.length, pitfalls }),
      calls, statements, errors: errs };
  }

  const api = { scan, useParser, version: 2 };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  if (typeof window !== 'undefined') { window.BookScan = api; }
  if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) cli();

  function cli() {
    const fs = require('fs'), path = require('path');
    const opts = {}, files = [];
    const argv = process.argv.slice(2);
    for (let k = 0; k < argv.length; k++) {
      if (argv[k] === '--rules' || argv[k] === '--parser') opts[argv[k].slice(2)] = argv[++k];
      else files.push(argv[k]);
    }
    if (!opts.rules || !opts.parser || files.length !== 1) {
      process.stderr.write('用法：node scan.js --rules RULES.json --parser pyparse.js SCRIPT.py\n');
      process.exit(2);
    }
    useParser(require(path.resolve(opts.parser)));
    const rules = JSON.parse(fs.readFileSync(opts.rules, 'utf8'));
    process.stdout.write(JSON.stringify(scan(fs.readFileSync(files[0], 'utf8'), rules)) + '\n');
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
    if (rep.statements.length) {
      h += '<p class="scan-statements-lead">不是调用、但有坑的语句：</p><ul class="scan-statements">' +
        rep.statements.map(st => `<li>第 ${st.line} 行 <code>${esc(st.text)}</code>：${st.pitfalls.map(pitLink).join('、')}</li>`).join('') + '</ul>';
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
    let rules = null, runs = 0, loading = null;
    // The rules and the parser load when the reader first touches the box (focus, paste) or
    // scans: the page's first view stays light, and a pasted script finds them loaded.
    const warm = () => {
      if (!loading) {
        loading = Promise.all([fetch(box.dataset.rules), parser || window.BookPyParse || load(box.dataset.parser)])
          .then(async ([res]) => {
            if (!res.ok) throw new Error(`规则文件 ${res.status}`);
            rules = await res.json();
          });
        loading.catch(() => { loading = null; });  // a failed load is tried again on the next scan
      }
      return loading;
    };
    input.addEventListener('focus', warm, { once: true });
    input.addEventListener('input', warm, { once: true });
    button.addEventListener('click', async () => {
      button.disabled = true;
      out.textContent = '扫描中…';
      try {
        if (!rules || !parser) await warm();
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

  // assets/pyparse.js defines window.BookPyParse (port-page.js may have loaded it already).
  function load(url) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = new URL(url, location.href).href;
      s.onload = () => resolve(useParser(window.BookPyParse));
      s.onerror = () => { s.remove(); reject(new Error('Python 解析器没有下载成功')); };
      document.head.append(s);
    });
  }

  if (typeof document !== 'undefined') {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', page); else page();
    // Material's instant navigation (when a site turns it on) swaps pages without a load.
    if (window.document$ && window.document$.subscribe) window.document$.subscribe(page);
  }
})();
