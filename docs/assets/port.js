/* 「生成 crate」: writes a PyTorch script's nn.Module classes as a burn 0.22.1 crate. One program
 * for the scan page (the button beside 「扫描」) and for `make port` (book/commands/port.py runs
 * `node port.js --rules R --parser P SCRIPT`, which prints the files as JSON).
 *
 * It reads the script through @lezer/python (assets/pyparse.js) and writes only what its rules
 * allow: each piece of burn code comes from a template that book/port/rules.py checked against
 * the map row it names, so a statement without a template becomes todo!() with its line and
 * why. Field names are the script's attribute names, so its state_dict loads through
 * PytorchStore. The crate's fixed files (Cargo.toml, Cargo.lock, check.py, ...) come in the rules. */
(function () {
  'use strict';
  let parser = null;
  function useParser(p) { parser = p.parser || p; }

  class Todo extends Error {}
  const todo = (why) => { throw new Todo(why); };

  // ------------------------------------------------------------------ tree
  function build(src) {
    const lines = [0];
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') lines.push(i + 1);
    const lineOf = (pos) => { let lo = 0, hi = lines.length - 1; while (lo < hi) { const m = (lo + hi + 1) >> 1; if (lines[m] <= pos) lo = m; else hi = m - 1; } return lo + 1; };
    function conv(c) {
      const n = { name: c.name, from: c.from, to: c.to, kids: [], err: c.type.isError };
      if (c.firstChild()) { do { n.kids.push(conv(c)); } while (c.nextSibling()); c.parent(); }
      n.text = src.slice(n.from, n.to);
      n.line = lineOf(n.from);
      return n;
    }
    return conv(parser.parse(src).cursor());
  }
  const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ':', '.', '=', 'AssignOp']);
  const sig = (n) => n.kids.filter((k) => !PUNCT.has(k.name) && k.name !== 'Comment');
  const kid = (n, name) => n.kids.find((k) => k.name === name);
  // An assignment's targets and value: `a, b = 1, 2` has no tuple node in lezer's tree.
  function assign(st) {
    const i = st.kids.findIndex((k) => k.name === 'AssignOp');
    const left = st.kids.slice(0, i).filter((k) => k.name !== ','), right = st.kids.slice(i + 1).filter((k) => k.name !== ',');
    return { targets: left, values: right };
  }

  // A dotted name (torch.nn.Linear, self.conv1) or null.
  function dotted(n) {
    if (n.name === 'VariableName') return n.text;
    if (n.name === 'MemberExpression' && kid(n, 'PropertyName')) {
      const head = dotted(n.kids[0]);
      return head && head + '.' + kid(n, 'PropertyName').text;
    }
    return null;
  }

  // ------------------------------------------------------------------ names
  function canon(name, imports, aliases) {
    const parts = name.split('.');
    if (imports[parts[0]] !== undefined) parts[0] = imports[parts[0]];
    let full = parts.join('.');
    for (const [from, to] of aliases) if (full === from || full.startsWith(from + '.')) { full = to + full.slice(from.length); break; }
    return full;
  }

  function readImports(top) {
    const imports = {};
    for (const st of top.kids) {
      if (st.name !== 'ImportStatement') continue;
      const words = st.kids;
      if (words[0].name === 'from') {
        const mod = words.slice(1, words.findIndex((k) => k.name === 'import')).map((k) => k.text).join('');
        const rest = words.slice(words.findIndex((k) => k.name === 'import') + 1).filter((k) => k.name === 'VariableName' || k.name === 'as');
        for (let i = 0; i < rest.length; i++) {
          if (rest[i].name !== 'VariableName') continue;
          const name = rest[i].text;
          if (rest[i + 1] && rest[i + 1].name === 'as') { imports[rest[i + 2].text] = mod + '.' + name; i += 2; } else imports[name] = mod + '.' + name;
        }
      } else {
        const rest = words.slice(1).filter((k) => k.name !== ',');
        for (let i = 0; i < rest.length; i++) {
          let j = i, name = rest[i].text;
          while (rest[j + 1] && rest[j + 1].name === '.') { name += '.' + rest[j + 2].text; j += 2; }
          if (rest[j + 1] && rest[j + 1].name === 'as') { imports[rest[j + 2].text] = name; j += 2; } else imports[name.split('.')[0]] = name.split('.')[0];
          i = j;
        }
      }
    }
    return imports;
  }

  // ------------------------------------------------------------------ literals and constants
  // A Python value the generator can write: number, bool, string, None or a tuple of them.
  function literal(n, consts) {
    switch (n.name) {
      case 'Number': {
        if (/^[0-9_]+$/.test(n.text)) return { v: parseInt(n.text.replace(/_/g, ''), 10), int: true };
        if (/^[0-9_.eE+-]+$/.test(n.text)) return { v: parseFloat(n.text.replace(/_/g, '')), int: false };
        return null;
      }
      case 'Boolean': return { v: n.text === 'True', bool: true };
      case 'None': return { v: null, none: true };
      case 'String': { const m = /^(['"])(.*)\1$/s.exec(n.text); return m ? { v: m[2], str: true } : null; }
      case 'VariableName': return consts && consts[n.text] ? Object.assign({ name: n.text }, consts[n.text]) : null;
      case 'UnaryExpression': { const x = literal(sig(n)[1] || n.kids[1], consts); return x && typeof x.v === 'number' && n.kids[0].text === '-' ? { v: -x.v, int: x.int } : null; }
      case 'ParenthesizedExpression': return literal(sig(n)[0], consts);
      case 'TupleExpression': { const xs = sig(n).map((k) => literal(k, consts)); return xs.every(Boolean) ? { v: xs.map((x) => x.v), tuple: true, int: xs.every((x) => x.int) } : null; }
      case 'BinaryExpression': {
        const [a, op, b] = n.kids, x = literal(a, consts), y = literal(b, consts);
        if (!x || !y || typeof x.v !== 'number' || typeof y.v !== 'number') return null;
        const int = x.int && y.int;
        const v = { '+': x.v + y.v, '-': x.v - y.v, '*': x.v * y.v, '//': Math.floor(x.v / y.v), '/': x.v / y.v }[op.text];
        return v === undefined ? null : { v, int: int && op.text !== '/' };
      }
      default: return null;
    }
  }

  // A Rust expression of a known type: a constant's or a parameter's name, or arithmetic on
  // them (num: a plain literal's value). A slot writes it by its type, never as a number's text
  // (a float slot once turned the constant DROPOUT into DROPOUT.0).
  class Expr {
    constructor(code, type, op, num) { this.code = code; this.type = type; this.op = !!op; this.num = num; }
    get int() { return this.type === 'usize'; }
    toString() { return this.code; }
    as(ty) { return this.type === ty ? this.code : (this.op ? '(' + this.code + ')' : this.code) + ' as ' + ty; }
  }
  function rust(v, how) {
    if (v instanceof Expr) {
      if (v.num !== undefined) return rust(v.num, how);
      if (!how) return v.code;
      // f: an f64 slot (Dropout's prob); f32, fpair: f32 ones (AdamW's weight_decay, a scale factor).
      if (how === 'f' && v.type !== 'bool') return v.as('f64');
      if (how === 'f32' && v.type !== 'bool') return v.as('f32');
      if (how === 'fpair' && v.type !== 'bool') return [v.as('f32'), v.as('f32')].join(', ');
      if ((how === 'pair' || how === 'quad') && v.int) return Array(how === 'pair' ? 2 : 4).fill(v.code).join(', ');
      todo(v.code + ' 是 ' + v.type + '，这里要' + ({ pair: '整数', quad: '整数', first: '元组' }[how] || '数'));
    }
    const arr = Array.isArray(v) ? v : [v, v];
    if (how === 'pair') return arr.map((x) => rust(x)).join(', ');
    if (how === 'fpair') return arr.map((x) => rust(x, 'f')).join(', ');
    if (how === 'quad') return [v, v, v, v].map((x) => rust(x)).join(', ');
    if (how === 'first') return rust(v[0], 'f');
    if (how === 'f' || how === 'f32') { const s = String(v); return /[.e]/.test(s) ? s : s + '.0'; }
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return String(v);
  }
  const SLOT = /\{([a-z_][a-z_0-9]*)(?::([a-z0-9]+))?\}/g;
  function fill(piece, values) {
    return piece.replace(SLOT, (_, name, how) => {
      if (!(name in values)) throw new Error('port: no value for ' + name);
      const v = values[name];
      return typeof v === 'string' && !how ? v : rust(v, how);
    });
  }

  // ------------------------------------------------------------------ arguments
  function parseSig(sigList) {
    return sigList.map((s) => {
      const i = s.indexOf('=');
      if (i < 0) return { name: s.replace(/^\*/, ''), star: s[0] === '*' };
      const raw = s.slice(i + 1);
      let d = raw === 'True' ? true : raw === 'False' ? false : raw === 'None' ? null : /^["']/.test(raw) ? raw.slice(1, -1)
        : raw[0] === '(' ? raw.slice(1, -1).split(',').map(Number) : Number(raw);
      return { name: s.slice(0, i), def: d, has: true };
    });
  }
  // The call's arguments by the template's signature: {name: node}.
  function bind(argList, sigList, receiver) {
    const params = parseSig(sigList), out = {};
    let pi = 0;
    if (receiver) { out[params[0].name] = receiver; pi = 1; }
    const args = sig(argList);
    for (let i = 0; i < argList.kids.length; i++) {
      const k = argList.kids[i];
      if (PUNCT.has(k.name)) continue;
      const next = argList.kids[i + 1];
      if (k.name === 'VariableName' && next && next.name === 'AssignOp') { out[k.text] = argList.kids[i + 2]; i += 2; continue; }
      if (pi >= params.length) todo('参数比 PyTorch 的签名多');
      if (params[pi].star) { (out[params[pi].name] = out[params[pi].name] || []).push(k); continue; }
      out[params[pi++].name] = k;
    }
    void args;
    return { params, out };
  }

  // A call's arguments as written: [{name (a keyword's, else null), node}].
  function callArgs(argList) {
    const out = [];
    for (let i = 0; i < argList.kids.length; i++) {
      const k = argList.kids[i];
      if (PUNCT.has(k.name)) continue;
      const next = argList.kids[i + 1];
      if (k.name === 'VariableName' && next && next.name === 'AssignOp') { out.push({ name: k.text, node: argList.kids[i + 2] }); i += 2; } else out.push({ name: null, node: k });
    }
    return out;
  }
  // The arguments of a call of the script's own class, in its __init__'s order (positional, then
  // keywords by name); a slot not given is undefined. null when they do not fit its parameters.
  function initArgs(argList, params) {
    const out = [];
    for (const [i, a] of callArgs(argList).entries()) {
      const j = a.name === null ? i : params.findIndex((p) => p.name === a.name);
      if (j < 0 || j >= params.length || out[j] !== undefined || /^\*/.test(a.node.text)) return null;
      out[j] = a.node;
    }
    return out;
  }
  // new()'s parameter types, from the defaults in __init__ (none: a size, usize).
  const paramType = (def) => (def && def.bool ? 'bool' : def && typeof def.v === 'number' && !def.int ? 'f64' : 'usize');
  // A value main.rs passes to new(), as that parameter's type.
  const argRust = (v, p) => (typeof v === 'boolean' ? rust(v) : paramType(p && p.def) === 'f64' ? rust(v, 'f') : String(v));

  // ------------------------------------------------------------------ the generator
  function port(text, rules, opts) {
    opts = opts || {};
    const top = build(text);
    const imports = readImports(top);
    const name = (n) => { const d = dotted(n); return d && canon(d, imports, rules.aliases); };
    const rowsUsed = new Set(), pitfalls = new Set(), todos = [], uses = new Set(['burn::prelude::*']);
    // The rows a statement's code comes from (its comment), and rows it only points to.
    let curRows = new Set(), curSee = new Set();
    const note = (r) => { rowsUsed.add(r); curRows.add(r); };
    const link = (anchor) => rules.site + 'reference/#' + anchor;
    const stmtText = (n) => n.text.split('\n').map((l) => l.trim()).join(' ').replace(/\s+/g, ' ');

    // Module-level constants: NAME = a number or True/False, assigned once. A name bound again
    // outside the functions (in an if or a loop, by +=, as a loop variable) or declared global
    // in one has its value only when the script runs: it is no constant.
    const bound = {};
    const bind1 = (t, n) => {
      if (t.name === 'VariableName') bound[t.text] = (bound[t.text] || 0) + n;
      else if (['TupleExpression', 'ParenthesizedExpression', 'ArrayExpression'].includes(t.name)) sig(t).forEach((k) => bind1(k, n));
    };
    const walkBinds = (n, inDef) => {
      if (n.name === 'ScopeStatement' && n.kids[0].name === 'global') sig(n).slice(1).forEach((k) => bind1(k, 2));
      if (!inDef && n.name === 'AssignStatement') assign(n).targets.forEach((t) => bind1(t, 1));
      if (!inDef && n.name === 'UpdateStatement') bind1(n.kids[0], 2);
      if (!inDef && n.name === 'ForStatement') n.kids.slice(1, n.kids.findIndex((k) => k.name === 'in')).forEach((t) => bind1(t, 2));
      n.kids.forEach((k) => walkBinds(k, inDef || n.name === 'FunctionDefinition' || n.name === 'ClassDefinition'));
    };
    walkBinds(top, false);
    const consts = {};
    for (const st of top.kids) {
      if (st.name !== 'AssignStatement') continue;
      const { targets, values } = assign(st);
      if (targets.length === values.length) {
        targets.forEach((t, i) => {
          const l = literal(values[i], consts);
          if (l && (typeof l.v === 'number' || l.bool) && t.name === 'VariableName' && bound[t.text] === 1) consts[t.text] = Object.assign({}, l, { line: st.line });
        });
      }
    }
    const constName = (n) => n.toUpperCase();
    const constType = (c) => (c.bool ? 'bool' : c.int ? 'usize' : 'f64');
    const constsUsed = new Set();
    const useConst = (n) => { constsUsed.add(n); return constName(n); };

    // The nn.Module subclasses, in the script's order.
    const classes = [];
    for (const st of top.kids) {
      if (st.name !== 'ClassDefinition') continue;
      const bases = kid(st, 'ArgList');
      if (!bases || !sig(bases).some((b) => name(b) === 'nn.Module')) continue;
      classes.push({ name: kid(st, 'VariableName').text, node: st, fields: [], methods: {} });
    }
    const byName = Object.fromEntries(classes.map((c) => [c.name, c]));
    for (const c of classes) {
      for (const f of kid(c.node, 'Body').kids) if (f.name === 'FunctionDefinition') c.methods[kid(f, 'VariableName').text] = f;
    }

    const valueOf = (n, env) => {
      const l = literal(n, consts);
      if (l) return l;
      if (env && n.name === 'VariableName' && env[n.text]) return env[n.text];
      return null;
    };
    // A value as Rust writes it, with its type: a parameter of new() (its type from its default),
    // a size read in forward (usize), a constant by its name, arithmetic on them, a literal.
    const rustValue = (n, env) => {
      if (n.name === 'VariableName' && env && env[n.text] && env[n.text].param) return new Expr(n.text, paramType(env[n.text].def));
      if (n.name === 'VariableName' && env && env[n.text] && env[n.text].scalar) return new Expr(n.text, 'usize');
      if (n.name === 'VariableName' && consts[n.text]) return new Expr(useConst(n.text), constType(consts[n.text]));
      if (n.name === 'BinaryExpression') {
        const [a, op, b] = n.kids;
        if (['+', '-', '*', '//'].includes(op.text)) {
          const x = rustValue(a, env), y = rustValue(b, env);
          if (x.type === 'bool' || y.type === 'bool') todo('参数 ' + n.text + ' 里有 True/False');
          // Python mixes ints and floats; Rust does not: the int side is written as an f64.
          const type = x.int && y.int ? 'usize' : 'f64';
          if (op.text === '//' && type !== 'usize') todo('参数 ' + n.text + '：小数的 //');
          const side = (e) => (type === 'usize' ? e.code : e.num !== undefined ? rust(e.num, 'f') : e.as('f64'));
          return new Expr(side(x) + ' ' + (op.text === '//' ? '/' : op.text) + ' ' + side(y), type, true);
        }
      }
      const l = literal(n, consts);
      if (l && typeof l.v === 'number') return new Expr(l.int ? String(l.v) : rust(l.v, 'f'), l.int ? 'usize' : 'f64', false, l.v);
      todo('参数 ' + n.text + ' 不是字面值或常量');
    };

    // A template's constructor or call, with the script's arguments.
    function instantiate(t, call, spelling, receiver, env, input) {
      const { params, out } = bind(kid(call, 'ArgList'), t.sig || [], receiver);
      const values = { device: 'device' };
      let code = t.replace_init || t.init || '';
      const used = [t.row];
      for (const p of params) {
        const node = out[p.name];
        if (p.name === 'input' || p.name === 'params' || p.star) continue;
        if ((t.options || {})[p.name] && t.options[p.name].step) continue;
        const o = (t.options || {});
        if (node === undefined) {
          if (p.has) values[p.name] = p.def;
          if ((t.always || []).includes(p.name)) values[p.name] = p.def;
          const opt = o[p.name];
          if (opt && opt.always && (!opt.values || opt.values.includes(p.def))) { code += fill(opt.code, values); used.push(opt.row); }
          if (t.required && t.required.includes(p.name)) todo(spelling + ' 没写 ' + p.name + '：对照表只有写了它的行');
          continue;
        }
        const lit = valueOf(node, env);
        const v = lit ? lit.v : null;
        if (lit && p.has && JSON.stringify(v) === JSON.stringify(p.def) && !(o[p.name] && o[p.name].always)) { values[p.name] = v; continue; }
        const keyed = lit && o[p.name + '=' + v];
        const opt = keyed || o[p.name];
        if (!opt && !(t.always || []).includes(p.name) && !SLOTS(t).has(p.name)) todo(spelling + ' 的参数 ' + p.name + '=' + node.text + '：对照表没有这样写的行');
        // bias=bias (a parameter of __init__), bias=config.bias: the value is the run's, the row covers one.
        if (opt && opt.values && !(lit && lit.v !== undefined)) todo(spelling + ' 的参数 ' + p.name + '=' + node.text + '：它的值要运行脚本才知道，对照表只有 ' + opt.values.join('、') + ' 的行');
        if (opt && opt.values && !opt.values.includes(v)) todo(spelling + ' 的参数 ' + p.name + '=' + node.text + '：对照表只有 ' + opt.values.join('、') + ' 的行');
        if (opt && opt.second !== undefined && !(lit && lit.tuple && lit.v[1] === opt.second)) todo(spelling + ' 的参数 ' + p.name + '=' + node.text + '：对照表只有第二个值是 ' + opt.second + ' 的行');
        if (opt && opt.int && !(lit && lit.int)) todo(spelling + ' 的参数 ' + p.name + '=' + node.text + '：对照表只有整数的行');
        if (opt && opt.default_is && out[opt.default_is] && valueOf(out[opt.default_is], env) && lit && JSON.stringify(valueOf(out[opt.default_is], env).v) === JSON.stringify(v)) { used.push(opt.default_row); continue; }
        values[p.name] = lit && (lit.tuple || lit.str || typeof v === 'boolean' || (!lit.name && typeof v === 'number')) ? v : rustValue(node, env);
        if (opt) {
          if (opt.replace) code = opt.replace;
          else code += fill(opt.code, values);
          used.push(opt.row);
          for (const u of opt.use || []) uses.add(u);
        }
      }
      if (input !== undefined) values.input = input;
      values.x = input;
      for (const u of t.use || []) uses.add(u);
      used.forEach((r) => note(r));
      if (t.pitfall) pitfalls.add(t.pitfall);
      return { values, code, used };
    }
    const SLOTS = (t) => new Set([...(t.init || '').matchAll(SLOT), ...(t.code || '').matchAll(SLOT)].map((m) => m[1]));

    // ---- fields: self.x = ... in __init__
    const structs = [];
    function makeStruct(cls) {
      const init = cls.methods.__init__;
      const env = {}, params = initParams(cls);
      for (const p of params) env[p.name] = { param: true, def: p.def };
      const s = { name: cls.name, params, fields: [], body: [], notes: [], line: cls.node.line };
      for (const st of init ? kid(init, 'Body').kids : []) {
        if (st.name === 'Comment' || st.name === ':') continue;
        const where = 'line ' + st.line;
        try {
          if (st.name === 'ExpressionStatement' && /^super\(/.test(st.text)) continue;
          if (/^self\.\w+\.weight\s*=\s*self\.\w+\.weight\s*$/.test(st.text)) {
            pitfalls.add('10-pitfalls/weight-tying');
            todo('权重绑定：这里两个字段各有一个 Param，载入时两份相同，forward 一样；训练时它们会分开（见坑页 weight-tying 的改法）');
          }
          if (st.name !== 'AssignStatement') todo('__init__ 里只读 self.x = 模块 这样的赋值');
          const [target, , val] = st.kids;
          if (target.name !== 'MemberExpression' || dotted(target) === null || dotted(target).split('.').length !== 2 || !dotted(target).startsWith('self.')) todo('不是 self.x = … 的赋值');
          const field = dotted(target).split('.')[1];
          s.fields.push(fieldOf(cls.name, field, val, env, st.line));
        } catch (e) {
          if (!(e instanceof Todo)) throw e;
          s.notes.push({ line: st.line, text: stmtText(st), why: e.message });
          todos.push({ where: cls.name + '::new', line: st.line, text: stmtText(st), why: e.message });
        }
      }
      structs.push(s);
      return s;
    }

    // __init__'s parameters after self, with their literal defaults.
    function initParams(cls) {
      const init = cls.methods.__init__, out = [];
      if (!init) return out;
      const pl = kid(init, 'ParamList').kids;
      pl.forEach((p, i) => {
        if (p.name !== 'VariableName' || p.text === 'self') return;
        const def = pl[i + 1] && pl[i + 1].name === 'AssignOp' ? literal(pl[i + 2], consts) : null;
        out.push({ name: p.text, def });
      });
      return out;
    }

    function fieldOf(owner, field, val, env, line) {
      if (val.name !== 'CallExpression') todo('self.' + field + ' 的值不是模块');
      const callee = name(val.kids[0]);
      if (byName[callee]) {
        const ps = initParams(byName[callee]), given = initArgs(kid(val, 'ArgList'), ps);
        if (!given) todo(callee + ' 的参数和它的 __init__ 对不上');
        const args = ps.map((p, i) => (given[i] !== undefined ? rustValue(given[i], env) : p.def && (typeof p.def.v === 'number' || p.def.bool) ? argRust(p.def.v, p) : todo(callee + ' 的参数 ' + p.name + ' 没有给出')));
        return { name: field, type: callee, init: callee + '::new(' + args.concat(['device']).join(', ') + ')', user: callee, line };
      }
      if (callee === 'nn.ModuleList') {
        // nn.ModuleList([Cls(…) for _ in range(n)]) is a Vec<Cls>: keys blocks.0.x as in PyTorch.
        const c = rules.containers['nn.ModuleList'], comp = sig(kid(val, 'ArgList'))[0];
        if (!comp || comp.name !== 'ArrayComprehensionExpression') todo('nn.ModuleList 的参数不是 [模块(…) for _ in range(n)]');
        const parts = sig(comp), item = parts[0], rng = parts.find((k) => k.name === 'CallExpression' && /^range\(/.test(k.text));
        const cname = item && item.name === 'CallExpression' && name(item.kids[0]);
        if (!cname || !byName[cname] || !rng) todo('nn.ModuleList 里不是本脚本的模块类，或者不是 range(n)');
        const n = sig(kid(rng, 'ArgList'));
        if (n.length !== 1) todo('range 的参数不止一个');
        const inner = fieldOf(owner, field, item, env, line);
        note(c.row);
        return { name: field, type: 'Vec<' + cname + '>', init: fill(c.code, { n: rustValue(n[0], env), item: inner.init }), user: cname, list: true, rows: [c.row], line };
      }
      if (callee === 'nn.Parameter') {
        const c = rules.containers['nn.Parameter'], z = sig(kid(val, 'ArgList'))[0];
        if (!z || z.name !== 'CallExpression' || name(z.kids[0]) !== 'torch.zeros') todo('nn.Parameter 的初值不是 torch.zeros(…)（只有它的行）');
        const dims = sig(kid(z, 'ArgList')).map((a) => rustValue(a, env));
        (c.use || []).forEach((u) => uses.add(u));
        note(c.row);
        return { name: field, type: 'Param<Tensor<' + dims.length + '>>', init: fill(c.code, { init: fill(c.zeros, { shape: dims.join(', '), device: 'device' }) }), param: { rank: dims.length }, rows: [c.row], line };
      }
      if (callee === 'nn.Sequential') {
        const sub = { name: owner + field.replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase()), params: [], fields: [], body: [], notes: [], seq: true, line };
        sig(kid(val, 'ArgList')).forEach((a, i) => {
          const item = fieldOf(sub.name, 'l' + i, a, env, a.line);
          if (item.lstm) todo('nn.Sequential 里的 nn.LSTM：它返回（输出, 状态），接不上下一层');
          sub.fields.push(Object.assign(item, { key: String(i) }));
        });
        structs.push(sub);
        note('modules-sequential');
        return { name: field, type: sub.name, init: sub.name + '::new(device)', seq: sub, line };
      }
      const t = rules.modules[callee];
      if (!t) todo((callee || val.kids[0].text) + '：生成器还没有它的模板（对照表的行见扫描报告）');
      const a0 = sig(kid(val, 'ArgList'))[0], l0 = a0 && literal(a0, consts);
      if (t.stack) return Object.assign(lstmField(t, val, callee, env, field, line), { in0: l0 && l0.int ? l0.v : null });
      const got = instantiate(t, val, callee, null, env);
      // Its first argument, when a number: the input size check.py tries (channels, features, vocabulary).
      return { name: field, type: t.type, init: fill(got.code + t.build, got.values), t, rows: got.used, line, spelling: callee, in0: l0 && l0.int ? l0.v : null };
    }

    // nn.LSTM: burn has no num_layers, so the field is an array of Lstm (the stack row): the
    // first layer from init, the others from next (their input is the layer before's output).
    // What the forward, main.rs's loading and check.py need of it is in `lstm`.
    function lstmField(t, val, callee, env, field, line) {
      const got = instantiate(t, val, callee, null, env);
      const { out } = bind(kid(val, 'ArgList'), t.sig, null);
      const lit = (k) => (out[k] ? valueOf(out[k], env) : null);
      const n = out.num_layers ? lit('num_layers').v : 1;
      const suffix = got.code.slice(t.init.length);  // the options' code (.with_batch_first(false))
      const cfg = (piece) => fill(piece + suffix + t.build, got.values);
      const layers = [cfg(t.init)].concat(Array(n - 1).fill(cfg(t.stack.next)));
      const items = '\n' + layers.map((l) => '                ' + l + ',').join('\n') + '\n            ';
      const hv = lit('hidden_size'), bf = out.batch_first ? lit('batch_first') : { v: false };
      const dl = out.dropout ? lit('dropout') : { v: 0 };
      note(t.stack.row);
      // Loaded in main.rs: PytorchStore for the other fields, this one gate by gate.
      note(t.pieces.partial.row); note(t.load.row);
      return {
        name: field, type: fill(t.stack.type, { num_layers: out.num_layers ? rustValue(out.num_layers, env) : '1' }),
        init: fill(t.stack.init, { items }), t, rows: got.used.concat([t.stack.row]), line, spelling: callee,
        lstm: {
          n, line, batchDim: bf && bf.v ? 0 : 1,
          dropout: out.dropout && !(dl && dl.v === 0) ? out.dropout.text : null,
          // The hidden size as main.rs can write it (a constant or a number), or null.
          hidden: hv && typeof hv.v === 'number' ? hv.v : null,
          hiddenMain: hv && typeof hv.v === 'number' ? (hv.name ? useConst(hv.name) : String(hv.v)) : null,
          layersMain: out.num_layers && lit('num_layers').name ? useConst(lit('num_layers').name) : String(n),
        },
      };
    }

    for (const c of classes) c.struct = makeStruct(c);

    // ---- forward
    function rankOf(cls, param, fwd) {
      // The rank a forward's parameter must have: the first layer it meets that fixes one.
      let found = null;
      // The parameter itself, or a rank-keeping layer applied to it (self.ln1(x)).
      const feeds = (n) => {
        if (n.name === 'VariableName') return n.text === param;
        if (n.name !== 'CallExpression') return false;
        const d = dotted(n.kids[0]), f = d && d.startsWith('self.') && cls.struct.fields.find((x) => x.name === d.slice(5));
        const a = sig(kid(n, 'ArgList'))[0];
        return !!(f && f.t && f.t.rank === 'same' && !f.t.in_rank && a && feeds(a));
      };
      const walk = (n) => {
        if (found) return;
        // B, T, C = x.size(): x has as many dimensions as there are names.
        if (n.name === 'AssignStatement') {
          const a = assign(n), v = a.values[0];
          if (a.targets.length > 1 && v && v.name === 'CallExpression' && v.kids[0].text === param + '.size' && !sig(kid(v, 'ArgList')).length) { found = { rank: a.targets.length }; return; }
        }
        // The target of a loss whose row takes class indices is an Int tensor.
        if (n.name === 'CallExpression' && rules.calls[name(n.kids[0])] && rules.calls[name(n.kids[0])].target_int) {
          const tgt = sig(kid(n, 'ArgList'))[1];
          if (tgt && (tgt.text === param || tgt.text.startsWith(param + '.'))) { found = { rank: 2, int: true }; return; }
        }
        if (n.name === 'CallExpression') {
          const args = sig(kid(n, 'ArgList'));
          // self.rnn(x, hidden): hidden is the LSTM's (h0, c0), each [num_layers, batch, hidden].
          const d1 = dotted(n.kids[0]), f1 = d1 && d1.startsWith('self.') && cls.struct.fields.find((x) => x.name === d1.slice(5));
          if (f1 && f1.lstm && args[1] && args[1].name === 'VariableName' && args[1].text === param) { found = { tuple: [{ rank: 3 }, { rank: 3 }], state: f1.lstm }; return; }
          if (args[0] && feeds(args[0])) {
            const d = dotted(n.kids[0]);
            const f = d && d.startsWith('self.') && cls.struct.fields.find((x) => x.name === d.split('.')[1]);
            const t = f && f.t;
            if (t && t.in_rank) found = { rank: t.in_rank, int: !!t.in_int };
            const ct = rules.calls[name(n.kids[0])];
            if (!found && ct && ct.in_rank) found = { rank: ct.in_rank };
            if (!found && f && f.user && byName[f.user].forward) { const p0 = byName[f.user].forward.params[0]; if (p0) found = { rank: p0.rank, int: p0.int }; }
            if (!found && f && f.seq) { const first = f.seq.fields[0]; if (first && first.t && first.t.in_rank) found = { rank: first.t.in_rank }; }
          }
        }
        n.kids.forEach(walk);
      };
      walk(fwd);
      return found || { rank: 2 };
    }

    function expr(n, cls, env) {
      switch (n.name) {
        case 'VariableName': {
          const v = env[n.text];
          if (!v) todo(n.text + ' 不是 forward 里已知的张量');
          // A burn tensor moves into the call that takes it: used again later, it is cloned.
          const next = env.__occ.find((o) => o.name === n.text && o.from > n.from);
          if (next && !next.target) { pitfalls.add('10-pitfalls/moved-value'); return { code: n.text + '.clone()', rank: v.rank, int: v.int, random: v.random, tuple: v.tuple, state: v.state }; }
          return { code: n.text, rank: v.rank, int: v.int, random: v.random, tuple: v.tuple, state: v.state };
        }
        case 'ParenthesizedExpression': { const e = expr(sig(n)[0], cls, env); return Object.assign({}, e, { code: '(' + e.code + ')' }); }
        case 'MemberExpression': {
          // self.pos (an nn.Parameter) and x[:, :T, :] (a slice)
          const dd = dotted(n);
          if (dd && /^self\.[A-Za-z_]\w*$/.test(dd)) {
            const f = cls.struct.fields.find((x) => x.name === dd.slice(5));
            if (f && f.param) { note(rules.containers['nn.Parameter'].row); return { code: fill(rules.containers['nn.Parameter'].access, { m: dd }), rank: f.param.rank }; }
            todo(dd + ' 不是张量');
          }
          if (n.kids.some((k) => k.name === '[')) return sliceExpr(n, cls, env);
          todo('属性 ' + n.text);
        }
        // falls through
        case 'UnaryExpression': {
          if (n.kids[0].text !== '-') todo('运算 ' + n.kids[0].text);
          const e = expr(n.kids[1], cls, env);
          note(rules.operators.neg.row);
          return { code: fill(rules.operators.neg.code, { a: e.code }), rank: e.rank };
        }
        case 'BinaryExpression': {
          const [a, op, b] = n.kids;
          const la = literal(a, consts), lb = literal(b, consts);
          if (op.text === '+' && !la && !lb) {
            const x = expr(a, cls, env), y = expr(b, cls, env);
            note(rules.operators['+'].row);
            return { code: fill(rules.operators['+'].code, { a: x.code, b: y.code }), rank: Math.max(x.rank, y.rank), op: true, random: x.random || y.random };
          }
          if (op.text === '*' && !la && !lb) {
            const x = expr(a, cls, env), y = expr(b, cls, env);
            note(rules.operators['*'].row);
            return { code: fill(rules.operators['*'].code, { a: x.code, b: y.code }), rank: Math.max(x.rank, y.rank), op: true, random: x.random || y.random };
          }
          if (op.text === '*' && (la || lb)) {
            const t = expr(la ? b : a, cls, env), s = la || lb;
            note(rules.operators.scalar.row);
            return { code: fill(rules.operators.scalar.code, { a: t.code, b: rust(s.v, 'f') }), rank: t.rank, op: true, random: t.random };
          }
          todo('运算 ' + op.text + '：生成器还没有它的模板');
        }
        // falls through
        case 'CallExpression': return callExpr(n, cls, env);
        default: todo('表达式 ' + n.name);
      }
    }

    // x[:, a:b, :] as burn's slice with s![..]: the ranges the slicing rows show.
    function sliceExpr(n, cls, env) {
      const i = n.kids.findIndex((k) => k.name === '[');
      const base = expr(n.kids[0], cls, env);
      const parts = [];
      let cur = [];
      for (const k of n.kids.slice(i + 1, -1)) { if (k.name === ',') { parts.push(cur); cur = []; } else cur.push(k); }
      parts.push(cur);
      if (parts.length !== base.rank) todo('切片的维数和张量的秩不同');
      const ranges = parts.map((p) => {
        const text = p.map((k) => k.text).join('');
        if (text === ':') return '..';
        const m = /^([^:]*):([^:]*)$/.exec(text);
        if (!m) todo('切片 ' + text + '：只写 a:b 这样的范围');
        const side = (t) => { if (!t) return ''; const nd = p.find((k) => k.text === t); if (!nd) todo('切片 ' + text); const l = literal(nd, consts); if (l && l.int && l.v >= 0) return String(l.v); return rustValue(nd, env); };
        return (side(m[1]) || '0') + '..' + side(m[2]);
      });
      const t = rules.calls['Tensor.__getitem__'];
      note(t.row);
      return { code: fill(t.code, { input: recv(base), ranges: ranges.join(', ') }), rank: base.rank };
    }
    function callExpr(n, cls, env) {
      const head = n.kids[0], argList = kid(n, 'ArgList'), args = sig(argList);
      const d = dotted(head);
      // self.layer(x) and self.method(x)
      if (d && d.startsWith('self.') && d.split('.').length === 2) {
        const attr = d.split('.')[1];
        const f = cls.struct.fields.find((x) => x.name === attr);
        if (f) {
          if (f.lstm) return lstmCall(f, n, args, cls, env);
          const xs = args.map((a) => expr(a, cls, env));
          if (f.t) {
            if (xs.length !== 1) todo('self.' + attr + ' 的调用参数不是一个张量');
            return { code: fill(f.t.forward, { m: 'self.' + attr, x: xs[0].code }), rank: rankOut(f.t, xs[0].rank), int: false, random: xs[0].random };
          }
          const callee = f.user ? byName[f.user] : null;
          // A Sequential of rank-keeping layers returns its input's rank.
          const ret = callee ? callee.ret : { rank: xs[0] && xs[0].rank, random: xs.some((x) => x.random) };
          const rnd = xs.some((x) => x.random) || (ret && ret.random);
          return { code: 'self.' + attr + '.forward(' + xs.map((x) => x.code).join(', ') + ')', rank: ret && ret.rank, tuple: ret && ret.tuple && ret.tuple.map((e) => Object.assign({}, e, { random: e.random || xs.some((x) => x.random) })), random: rnd };
        }
        if (cls.methods[attr]) {
          const m = methodOf(cls, attr);
          const xs = args.map((a) => expr(a, cls, env));
          return { code: 'self.' + attr + '(' + xs.map((x) => x.code).join(', ') + ')', rank: m.ret && m.ret.rank, tuple: m.ret && m.ret.tuple, random: xs.some((x) => x.random) || (m.ret && m.ret.random) };
        }
        todo('self.' + attr + ' 不是模块的字段');
      }
      // for block in self.blocks: block(x)
      if (head.name === 'VariableName' && env[head.text] && env[head.text].module) {
        const c = byName[env[head.text].module], xs = args.map((a) => expr(a, cls, env));
        return { code: head.text + '.forward(' + xs.map((x) => x.code).join(', ') + ')', rank: c.ret && c.ret.rank, tuple: c.ret && c.ret.tuple };
      }
      // torch.f(x, ...) or x.f(...)
      let spelling = name(head), receiver = null;
      // torch.arange(…) is a module's function, not a method of a tensor named torch.
      const d0 = head.name === 'MemberExpression' && dotted(head.kids[0]);
      const ofModule = !!d0 && imports[d0.split('.')[0]] !== undefined && !env[d0.split('.')[0]];
      if (!(spelling && rules.calls[spelling]) && head.name === 'MemberExpression' && !ofModule) {
        receiver = head.kids[0];
        spelling = 'Tensor.' + kid(head, 'PropertyName').text;
      }
      const t = rules.calls[spelling];
      if (!t) todo((spelling || head.text) + '：生成器还没有它的模板');
      const { out } = bind(argList, t.sig, receiver);
      if (spelling === 'F.scaled_dot_product_attention') return sdpa(t, n, out, cls, env);
      const input = out.input ? expr(out.input, cls, env) : null;
      if (!input) todo(spelling + ' 没有输入张量');
      if (t.kind === 'dims') {
        note(t.row);
        if (!out.dim) return { code: fill(t.code, { input: input.code }), dims: input.rank };
        const dim = valueOf(out.dim); if (!dim || !dim.int) todo('size 的 dim 不是整数');
        note(t.dim_row);
        return { code: fill(t.dim_code, { input: input.code, dim: dim.v < 0 ? input.rank + dim.v : dim.v }), scalar: true };
      }
      if (t.kind === 'parts') {
        const dim = out.dim ? valueOf(out.dim) : { v: 0, int: true };
        if (!dim || !dim.int) todo('split 的 dim 不是整数');
        const size = out.split_size_or_sections && valueOf(out.split_size_or_sections, env);
        if (!size || !size.int) todo('split 的大小不是一个整数（按大小列表切还不生成）');
        note(t.row);
        return { code: fill(t.code, { input: recv(input), split_size_or_sections: rustValue(out.split_size_or_sections, env), dim: dim.v < 0 ? input.rank + dim.v : dim.v }), parts: { rank: input.rank } };
      }
      if (t.kind === 'loss') {
        // The input is named first: the row reads its device, then moves it.
        const target = expr(out.target, cls, env);
        for (const k of Object.keys(out)) if (!['input', 'target'].includes(k)) todo(spelling + ' 的参数 ' + k + '：生成器只写不带参数的交叉熵');
        const tmp = 'ce_input_' + env.__pre.length;
        env.__pre.push('let ' + tmp + ' = ' + input.code + ';');
        note(t.row);
        (t.use || []).forEach((u) => uses.add(u));
        return { code: fill(t.code, { input: tmp, target: target.code }), rank: 1 };
      }
      if (t.rank === 'flatten') {
        const start = out.start_dim ? valueOf(out.start_dim).v : 0;
        let end = out.end_dim ? valueOf(out.end_dim).v : -1;
        end = ((end % input.rank) + input.rank) % input.rank;
        const got = instantiate(t, n, spelling, receiver, env, input.code);
        const rank = input.rank - (end - start);
        return { code: fill(t.code, Object.assign(got.values, { input: recv(input), start_dim: start, end_dim: end, rank_out: rank })), rank, random: input.random };
      }
      if (t.rank === 'reshape') {
        const lits = (out.shape || []).map((s) => {
          const l = valueOf(s, env);
          if (l && l.int) return l;
          if (s.name === 'CallExpression') {
            // logits.size(-1): read before the tensor moves into reshape.
            const e = expr(s, cls, env);
            if (!e.scalar) todo('view 的形状 ' + s.text + ' 不是整数');
            const tmp = 'dim_' + env.__pre.length;
            env.__pre.push('let ' + tmp + ' = ' + e.code + ';');
            return { code: tmp };
          }
          return { code: rustValue(s, env) };
        });
        const infer = lits.some((l) => l.v === -1);
        if (infer) note(t.infer_row);
        // With a -1 the shape is [i32; D]: a usize is cast to it.
        const shape = lits.map((l) => (l.code !== undefined ? (infer ? '(' + l.code + ') as i32' : l.code) : l.name ? useConst(l.name) + (infer ? ' as i32' : '') : String(l.v)));
        if (shape.length === 1 && out.shape[0].name === 'TupleExpression') todo('view 的形状写成了元组');
        note(t.row);
        return { code: fill(t.code, { input: recv(input), shape: shape.join(', ') }), rank: shape.length, random: input.random };
      }
      if (t.rank === 'same' && t.sig.includes('dim')) {
        const dim = valueOf(out.dim); if (!dim || !dim.int) todo(spelling + ' 的 dim 不是整数');
        const got = instantiate(t, n, spelling, receiver, env, input.code);
        const dd = dim.v < 0 ? input.rank + dim.v : dim.v;
        return { code: fill(t.code, Object.assign(got.values, { input: input.code, dim: dd })), rank: input.rank };
      }
      const got = instantiate(t, n, spelling, receiver, env, input.code);
      return { code: fill(got.code + t.code, Object.assign(got.values, { input: recv(input) })), rank: rankOut(t, input.rank), random: t.random || input.random };
    }
    // F.scaled_dot_product_attention: burn's attention() with its options, from the rows.
    function sdpa(t, n, out, cls, env) {
      const [q, k, v] = ['query', 'key', 'value'].map((x) => { if (!out[x]) todo('scaled_dot_product_attention 少了 ' + x); return expr(out[x], cls, env); });
      const none = (x) => !out[x] || out[x].name === 'None';
      if (!none('attn_mask')) todo('scaled_dot_product_attention 的 attn_mask：掩码的行还不生成');
      if (!none('scale')) todo('scaled_dot_product_attention 的 scale 还不生成');
      const causal = out.is_causal ? literal(out.is_causal, consts) : { v: false };
      if (!causal || typeof causal.v !== 'boolean') todo('is_causal 不是 True 或 False');
      const dp = out.dropout_p;
      if (dp) {
        const l = literal(dp, consts);
        // p if self.training else 0.0: evaluation is the 0.0; in training burn's attention() has
        // no dropout, so that path stops (the crate still compiles and runs in eval).
        const cond = dp.name === 'ConditionalExpression' && /if\s+self\.training\s+else/.test(dp.text);
        const zero = cond && literal(dp.kids[dp.kids.length - 1], consts);
        if (l && l.v === 0) { /* no dropout */ } else if (zero && zero.v === 0) {
          env.__pre.push(`if ${q.code.replace(/\.clone\(\)$/, '')}.is_autodiff() { todo!("line ${n.line}: dropout_p in training: burn's attention() has no dropout (its explicit masked softmax can carry one)"); }`);
        } else todo('scaled_dot_product_attention 的 dropout_p=' + dp.text + '：attention() 没有 dropout');
      }
      const options = fill(t.parts.options, { is_causal: causal.v });
      (t.use || []).forEach((u) => uses.add(u));
      note(t.row);
      if (causal.v) curSee.add(t.note_row);
      return { code: fill(t.code, { query: q.code, key: k.code, value: v.code, options }), rank: q.rank };
    }
    // self.rnn(x) or self.rnn(x, hidden): the layers in turn (the stack row), each from its slice of
    // the stacked (h0, c0) as an LstmState (cell first), and (output, (h_n, c_n)) stacked as in
    // PyTorch. Dropout between the layers exists only in training: there the forward stops.
    function lstmCall(f, n, args, cls, env) {
      const L = f.lstm, S = f.t.stack, P = f.t.pieces;
      if (args.length < 1 || args.length > 2) todo('self.' + f.name + ' 的参数不是（输入）或（输入, (h0, c0)）');
      const x = expr(args[0], cls, env);
      let hs = null;
      if (args[1]) {
        const a = args[1];
        if (a.name !== 'VariableName' || !env[a.text] || !env[a.text].state) todo('self.' + f.name + ' 的第二个参数：只写 forward 收到的 (h0, c0)');
        const v = expr(a, cls, env);
        hs = { h: f.name + '_h0', c: f.name + '_c0' };
        env.__pre.push('let (' + hs.h + ', ' + hs.c + ') = ' + v.code + ';');
        for (const p of [P.state, P.layer, P.squeeze]) { note(p.row); (p.use || []).forEach((u) => uses.add(u)); }
      }
      const part = (v, k) => fill(P.squeeze.code, { input: fill(P.layer.code, { input: v + (k < L.n - 1 ? '.clone()' : ''), dim: 0, start: k, length: 1 }), rank: 2, dim: 0 });
      let prev = x.code;
      const hid = [], cel = [];
      for (let k = 0; k < L.n; k++) {
        const state = hs ? fill(P.state.code, { c: part(hs.c, k), h: part(hs.h, k) }) : 'None';
        const y = f.name + '_y' + k, s = f.name + '_s' + k;
        env.__pre.push('let (' + y + ', ' + s + ') = ' + fill(S.call, { m: 'self.' + f.name, k, x: prev, state }) + ';');
        if (k < L.n - 1 && L.dropout) {
          pitfalls.add('10-pitfalls/dropout-train-eval');
          env.__pre.push(`if ${y}.is_autodiff() { todo!("line ${L.line}: nn.LSTM's dropout=${esc(L.dropout)} between its layers in training: burn's Lstm has none (a Dropout between the layers would carry it)"); }`);
        }
        prev = y; hid.push(s + '.hidden'); cel.push(s + '.cell');
      }
      note(S.row); note(P.stack.row);
      const stacked = (parts) => fill(P.stack.code, { rank: 3, parts: parts.join(', '), dim: 0 });
      return { code: '(' + prev + ', (' + stacked(hid) + ', ' + stacked(cel) + '))', tuple: [{ rank: 3, random: x.random }, { tuple: [{ rank: 3 }, { rank: 3 }], state: L }] };
    }
    // An operator's result is parenthesised where a method is called on it.
    const recv = (e) => (e.op ? '(' + e.code + ')' : e.code);
    const rankOut = (t, r) => (t.rank === 'same' ? r : typeof t.rank === 'number' ? t.rank : r);

    const methodsDone = {};
    function methodOf(cls, mname) {
      const key = cls.name + '.' + mname;
      if (methodsDone[key]) return methodsDone[key];
      const f = cls.methods[mname];
      const pl = kid(f, 'ParamList').kids;
      const ps = sig(kid(f, 'ParamList')).slice(1).filter((p) => p.name === 'VariableName');
      const env = {}, params = [];
      for (const p of ps) {
        const r = rankOf(cls, p.text, f);
        const i = pl.indexOf(p);
        // A parameter that defaults to None is an Option (the check passes None).
        const opt = pl[i + 1] && pl[i + 1].name === 'AssignOp' && pl[i + 2] && pl[i + 2].name === 'None';
        env[p.text] = Object.assign({}, r, { optional: opt });
        params.push({ name: p.text, rank: r.rank, int: r.int, optional: opt, tuple: r.tuple, state: r.state });
      }
      const m = { name: mname, params, lines: [], ret: null, todo: null, line: f.line };
      env.__occ = [];
      // A target binds once its statement ends: `q = q.view(…)` reads the old q first.
      const occ = (n, target, at) => {
        if (n.name === 'VariableName') env.__occ.push({ name: n.text, from: at === undefined ? n.from : at, target });
        else n.kids.forEach((k) => occ(k, false));
      };
      const walkOcc = (st) => {
        if (st.name === 'AssignStatement') { const a = assign(st); a.values.forEach((v) => occ(v, false)); a.targets.forEach((t) => occ(t, t.name === 'VariableName', st.to)); } else if (st.name === 'Body' || st.name === 'ForStatement') st.kids.forEach(walkOcc); else occ(st, false);
      };
      kid(f, 'Body').kids.forEach(walkOcc);
      env.__occ.sort((a, b) => a.from - b.from);
      methodsDone[key] = m;
      const body = kid(f, 'Body').kids.filter((k) => !PUNCT.has(k.name) && k.name !== 'Comment');
      let early = null;  // the tuple an `if x is None: return …` returned (its None slots)
      const flush = () => { const pre = env.__pre; env.__pre = []; return pre; };
      env.__pre = [];
      const assignLine = (targets, e, mut) => {
        if (targets.length === 1) {
          env[targets[0].text] = e.scalar ? { scalar: true } : { rank: e.rank, int: e.int, random: e.random, tuple: e.tuple, state: e.state };
          return (mut ? '' : 'let ') + targets[0].text + ' = ' + e.code + ';';
        }
        if (e.dims) {
          if (e.dims !== targets.length) todo('左边有 ' + targets.length + ' 个变量，张量的秩是 ' + e.dims);
          targets.forEach((t) => { env[t.text] = { scalar: true }; });
          return 'let [' + targets.map((t) => t.text).join(', ') + '] = ' + e.code + ';';
        }
        if (e.parts) {
          targets.forEach((t) => { env[t.text] = { rank: e.parts.rank }; });
          return 'let [' + targets.map((t) => t.text).join(', ') + ']: [' + tyOf(e.parts) + '; ' + targets.length + '] = ' + e.code + '.try_into().unwrap();';
        }
        if (!e.tuple || e.tuple.length !== targets.length) todo('左边有 ' + targets.length + ' 个变量，右边不是同样长的元组');
        targets.forEach((t, j) => { env[t.text] = e.tuple[j]; });
        return 'let (' + targets.map((t) => t.text).join(', ') + ') = ' + e.code + ';';
      };
      const returnOf = (st) => {
        const vals = sig(st).slice(1);
        const es = vals.map((v) => (v.name === 'None' ? { none: true } : expr(v, cls, env)));
        if (es.length === 1 && !es[0].tuple && !es[0].none) return { ret: { rank: es[0].rank, int: es[0].int, random: es[0].random }, code: es[0].code };
        if (es.length === 1 && es[0].state) return { ret: { tuple: es[0].tuple, state: es[0].state }, code: es[0].code };
        if (early) es.forEach((e, j) => { if (early[j]) e.code = 'Some(' + e.code + ')'; });
        return { ret: { tuple: es.map((e) => (e.none ? { none: true } : { rank: e.rank, random: e.random, optional: !!(early && early[j(es, e)]), tuple: e.tuple, state: e.state })) }, code: '(' + es.map((e) => (e.none ? 'None' : e.code)).join(', ') + ')' };
      };
      const j = (es, e) => es.indexOf(e);
      for (let i = 0; i < body.length; i++) {
        const st = body[i];
        curRows = new Set(); curSee = new Set();
        try {
          if (st.name === 'AssignStatement') {
            const { targets, values } = assign(st);
            if (values.length !== 1) todo('右边是几个值');
            if (!targets.every((t) => t.name === 'VariableName')) todo('赋值的左边不是变量');
            const e = expr(values[0], cls, env);
            const line = assignLine(targets, e, false);
            m.lines.push({ py: st, rows: [...curRows], see: [...curSee], code: flush().concat([line]).join('\n        ') });
          } else if (st.name === 'ReturnStatement') {
            const r = returnOf(st);
            if (m.ret && m.ret.tuple && r.ret.tuple) r.ret.tuple.forEach((e, k) => { if (e.none && m.ret.tuple[k]) r.ret.tuple[k] = m.ret.tuple[k]; });
            m.ret = r.ret;
            m.lines.push({ py: st, rows: [...curRows], see: [...curSee], code: flush().concat([r.code]).join('\n        ') });
          } else if (st.name === 'ForStatement') {
            // for block in self.blocks: x = block(x), over an nn.ModuleList field.
            const loopVar = st.kids[1], over = st.kids[3], d = over && dotted(over);
            const f = d && d.startsWith('self.') && cls.struct.fields.find((x) => x.name === d.slice(5));
            if (!loopVar || loopVar.name !== 'VariableName' || !f || !f.list) todo('for 循环：只写遍历 nn.ModuleList 的循环');
            env[loopVar.text] = { module: f.user };
            const inner = kid(st, 'Body').kids.filter((k) => !PUNCT.has(k.name) && k.name !== 'Comment');
            const lines = [];
            for (const s2 of inner) {
              if (s2.name !== 'AssignStatement') todo('循环体里只写赋值');
              const { targets, values } = assign(s2);
              if (targets.length !== 1 || !env[targets[0].text] || env[targets[0].text].module) todo('循环体里只给已有的张量赋值');
              lines.push(assignLine(targets, expr(values[0], cls, env), true));
            }
            const muts = [...new Set(inner.map((s2) => assign(s2).targets[0].text))];
            m.lines.push({ py: st, rows: [...curRows], see: [...curSee], code: flush().concat(muts.map((v) => 'let mut ' + v + ' = ' + v + ';'), ['for ' + loopVar.text + ' in &self.' + f.name + ' {'], lines.map((l) => '    ' + l), ['}']).join('\n        ') });
          } else if (st.name === 'IfStatement' && /^if\s+(\w+)\s+is\s+None\s*:/.test(st.text)) {
            // if targets is None: return … , with targets an Option parameter.
            const v = /^if\s+(\w+)/.exec(st.text)[1];
            const inner = kid(st, 'Body').kids.filter((k) => !PUNCT.has(k.name) && k.name !== 'Comment');
            if (!env[v] || !env[v].optional || inner.length !== 1 || inner[0].name !== 'ReturnStatement' || st.kids.some((k) => k.name === 'else' || k.name === 'elif')) todo('if 语句：只写 if 参数 is None: return …');
            const r = returnOf(inner[0]);
            early = (r.ret.tuple || []).map((e) => !!e.none);
            m.ret = r.ret;
            env[v] = Object.assign({}, env[v], { optional: false });
            m.lines.push({ py: st, rows: [...curRows], see: [...curSee], code: flush().concat(['let Some(' + v + ') = ' + v + ' else {', '    return ' + r.code + ';', '};']).join('\n        ') });
          } else todo(st.name === 'IfStatement' ? 'if 语句：生成器只写直线的 forward' : st.name === 'ForStatement' ? 'for 循环：生成器只写直线的 forward' : '语句 ' + st.name);
        } catch (e) {
          if (!(e instanceof Todo)) throw e;
          const rest = body.length - i - 1;
          m.todo = { line: st.line, text: stmtText(st), why: e.message, rest };
          todos.push({ where: cls.name + '::' + mname, line: st.line, text: stmtText(st), why: e.message + (rest ? '（其后 ' + rest + ' 条语句也没有生成）' : '') });
          break;
        }
      }
      if (!m.ret) m.ret = { rank: params.length ? params[0].rank : 2 };
      return m;
    }
    for (const c of classes) if (c.methods.forward) { c.forward = methodOf(c, 'forward'); c.ret = c.forward.ret; }
    for (const s of structs) if (s.seq) {
      let rank = null;
      s.forward = { name: 'forward', params: [{ name: 'x', rank: null }], lines: [], ret: null };
      for (const f of s.fields) if (!f.t) todo('Sequential 里的 ' + f.type);
      s.ret = { rank: 'R' };
    }

    // ------------------------------------------------------------------ writing model.rs
    const comment = (rows) => [...new Set(rows.filter(Boolean).map((r) => link(r)))].join(' ');
    // A rank the generator could not follow (after a todo) is written as 2: the body is todo!().
    const ty = tyOf;
    function tyOf(p) { return (p.none ? 'Option<Tensor<1>>' : p.optional ? 'Option<' + ty(Object.assign({}, p, { optional: false })) + '>' : p.tuple ? '(' + p.tuple.map(ty).join(', ') + ')' : p.rank === 'R' ? 'Tensor<D>' : 'Tensor<' + (Number.isInteger(p.rank) ? p.rank : 2) + (p.int ? ', Int' : '') + '>'); }
    const out = [];
    const ctorParam = (p) => p.name + ': ' + paramType(p.def);
    for (const s of structs) {
      out.push('');
      out.push(s.seq ? `/// nn.Sequential (line ${s.line}): its layers in order; the keys 0, 1, … are mapped to l0, l1, … on load.` : `/// ${s.name} (line ${s.line})`);
      out.push('#[derive(Module, Debug)]', 'pub struct ' + s.name + ' {');
      for (const f of s.fields) out.push('    pub ' + f.name + ': ' + f.type + ',');
      out.push('}', '', 'impl ' + s.name + ' {');
      out.push('    pub fn new(' + s.params.map(ctorParam).concat(['device: &Device']).join(', ') + ') -> Self {');
      for (const n of s.notes) out.push(`        // todo(line ${n.line}): ${n.text} (${n.why})`);
      if (s.notes.some((n) => /^self\./.test(n.text) && /=\s*(nn|torch)\./.test(n.text))) out.push(`        todo!("line ${s.notes[0].line}: ${esc(s.notes[0].text)}");`);
      else {
        out.push('        Self {');
        for (const f of s.fields) {
          if (f.rows) out.push('            // ' + comment(f.rows) + (f.t && f.t.pitfall ? ' ' + rules.site + f.t.pitfall + '/' : ''));
          out.push('            ' + f.name + ': ' + f.init + ',');
        }
        out.push('        }');
      }
      out.push('    }');
      if (s.seq) {
        // Its rank is the first layer's that fixes one (a conv: 4); layers of any rank make it generic.
        const first = s.fields.find((f) => f.t && f.t.in_rank);
        out.push('', first ? `    pub fn forward(&self, x: Tensor<${first.t.in_rank}>) -> Tensor<${first.t.in_rank}> {` : '    pub fn forward<const D: usize>(&self, x: Tensor<D>) -> Tensor<D> {');
        for (const f of s.fields) out.push('        let x = ' + fill(f.t.forward, { m: 'self.' + f.name, x: 'x' }) + ';');
        out.push('        x', '    }');
      }
      const cls = byName[s.name];
      for (const m of cls ? Object.values(methodsDone).filter((x) => cls.methods[x.name] && methodsDone[cls.name + '.' + x.name] === x) : []) {
        const fname = m.name;
        out.push('', `    /// ${s.name}.${fname} (line ${m.line})`);
        out.push('    pub fn ' + fname + '(&self, ' + m.params.map((p) => p.name + ': ' + ty(p)).join(', ') + ') -> ' + ty(m.ret) + ' {');
        m.lines.forEach((l, i) => {
          out.push('        // line ' + l.py.line + ': ' + stmtText(l.py));
          if (l.rows.length) out.push('        // ' + comment(l.rows.sort()) + (l.see.length ? ' (see ' + comment(l.see) + ')' : ''));
          out.push('        ' + l.code);
          void i;
        });
        if (m.todo) {
          out.push(`        todo!("line ${m.todo.line}: ${esc(m.todo.text)}: ${esc(m.todo.why)}")`);
        }
        out.push('    }');
      }
      out.push('}');
    }
    const head = ['//! The nn.Module classes of ' + (opts.script || 'the script') + ', written by the port generator.',
      '//! Each line comes from a row of the torch → burn map (the link beside it).', ''];
    const useLines = [...uses].sort().map((u) => 'use ' + u + ';');

    // ------------------------------------------------------------------ the model the check builds
    const models = findModel(top, byName, name, consts, initParams);
    // The loss functions and optimizers the script builds at its top level (train() in main.rs).
    const training = [], modelUses = new Set(uses);
    // parser.add_argument("--lr", default=0.05): what args.lr is when the script runs without flags.
    const argDefaults = {};
    const walkArgs = (n) => {
      if (n.name === 'CallExpression' && /\.add_argument$/.test(dotted(n.kids[0]) || '')) {
        const al = kid(n, 'ArgList'), first = sig(al)[0], opt = literal(first || al, consts);
        const i = al.kids.findIndex((k) => k.name === 'VariableName' && k.text === 'default');
        const d = i >= 0 && literal(al.kids[i + 2], consts);
        if (opt && opt.str && d && typeof d.v === 'number') argDefaults[opt.v.replace(/^-+/, '').replace(/-/g, '_')] = d;
      }
      n.kids.forEach(walkArgs);
    };
    walkArgs(top);
    for (const st of top.kids) {
      if (st.name !== 'AssignStatement') continue;
      const { targets, values } = assign(st);
      if (targets.length !== 1 || values.length !== 1 || targets[0].name !== 'VariableName' || values[0].name !== 'CallExpression') continue;
      const own = ownOptimizer(values[0]);
      const spelling = own ? own.spelling : name(values[0].kids[0]), t = rules.training[spelling];
      if (!t) continue;
      const entry = { var: targets[0].text, spelling, kind: t.kind, line: st.line, text: stmtText(st) };
      try {
        if (t.todo) { note(t.row); entry.link = t.row; todo(t.todo); }
        if (own) {
          note(t.row); entry.link = t.row;
          todo(`优化器是脚本自己的方法 ${own.cls}.${own.method}（第 ${own.line} 行）返回的 ${spelling}：它的参数要运行脚本才知道，生成器只写在顶层直接建的优化器`);
        }
        const extra = { device: '&device' };
        if (t.kind === 'sched') {
          // Its first argument: an optimizer built above, whose lr burn's scheduler starts from.
          const a0 = sig(kid(values[0], 'ArgList'))[0];
          const o = a0 && a0.name === 'VariableName' && training.find((e) => e.var === a0.text && e.kind === 'optim');
          if (!o || o.todo) todo(spelling + ' 的第一个参数不是上面建好的优化器');
          extra.lr = o.var + '_lr';
          entry.optim = o.var;
          entry.step = fill(t.step, { sched: entry.var });
        }
        const got = instantiate(t, values[0], spelling, null, {});
        entry.code = fill(got.code + t.build, Object.assign(got.values, extra));
        entry.rows = got.used;
        if (t.kind === 'optim') {
          const { out } = bind(kid(values[0], 'ArgList'), t.sig, null);
          const ps = out.params && out.params.name === 'CallExpression' && dotted(out.params.kids[0]);
          const owner = ps && ps.endsWith('.parameters') && models.find((m) => m.var === ps.split('.')[0]);
          if (!owner) todo(spelling + ' 的第一个参数不是某个模型的 .parameters()（参数组、一部分参数还不生成）');
          entry.model = owner.cls;
          let lr = out.lr ? literal(out.lr, consts) : { v: parseSig(t.sig).find((x) => x.name === 'lr').def };
          const flag = out.lr && dotted(out.lr) && argDefaults[dotted(out.lr).split('.').pop()];
          if (!lr && flag && dotted(out.lr).split('.').length === 2) { lr = flag; entry.lrFrom = 'argparse'; }
          entry.lr = lr && typeof lr.v === 'number' ? rust(lr.v, 'f') : null;
          entry.lrText = out.lr ? out.lr.text : null;
        }
      } catch (e) {
        if (!(e instanceof Todo)) throw e;
        entry.todo = e.message;
        todos.push({ where: 'train', line: st.line, text: entry.text, why: e.message });
      }
      training.push(entry);
    }
    const loop = loopLines(top, models, training);

    // optimizer = model.configure_optimizers(…): a method of the model's class whose every return
    // builds the same optimizer. {spelling, cls, method, line} or null.
    function ownOptimizer(call) {
      const d = dotted(call.kids[0]);
      if (!d || d.split('.').length !== 2) return null;
      const [v, meth] = d.split('.'), m = models.find((x) => x.var === v), cls = m && byName[m.cls];
      const f = cls && cls.methods[meth];
      if (!f) return null;
      const rets = [];
      const walk = (n) => { if (n !== f && (n.name === 'FunctionDefinition' || n.name === 'ClassDefinition')) return; if (n.name === 'ReturnStatement') rets.push(sig(n).length === 2 ? sig(n)[1] : null); n.kids.forEach(walk); };
      walk(f);
      const spellings = new Set(rets.map((r) => (r && r.name === 'CallExpression' ? name(r.kids[0]) : null)));
      const [sp] = spellings;
      if (spellings.size !== 1 || !sp || !rules.training[sp] || rules.training[sp].kind !== 'optim') return null;
      return { spelling: sp, cls: cls.name, method: meth, line: f.line };
    }
    // The constants go last: train()'s optimizers and losses (main.rs) use them too.
    const constLines = [...constsUsed].map((c) => `pub const ${constName(c)}: ${constType(consts[c])} = ${consts[c].bool ? rust(consts[c].v) : consts[c].int ? consts[c].v : rust(consts[c].v, 'f')}; // line ${consts[c].line}`);
    const modelRs = head.concat(['#![allow(dead_code, unused_variables, unreachable_code, non_snake_case, clippy::all)]'], useLines, constLines.length ? [''].concat(constLines) : [], out).join('\n') + '\n';
    return { modelRs, structs, classes, todos, rowsUsed: [...rowsUsed].sort(), pitfalls: [...pitfalls].sort(), models, training, loop, trainUses: [...uses].filter((u) => !modelUses.has(u)).sort(), consts, constName };

    // The training loop's statements outside the classes (zero_grad, backward, step, clipping,
    // scheduler steps, saving), each with what it becomes in burn and its rows: train() lists
    // them, as the loop itself is not generated. Saving a model's state_dict also writes save_<model>.
    function loopLines(root, models, training) {
      const L = rules.loop, found = [], seen = new Set();
      const byVar = (v, kind) => training.find((e) => e.var === v && e.kind === kind);
      const model = (v) => models.find((m) => m.var === v);
      const add = (n, what, vals) => {
        const key = n.line + ':' + what;
        if (seen.has(key)) return;
        seen.add(key);
        const t = L[what];
        t.rows.forEach(note);
        if (t.pitfall) pitfalls.add(t.pitfall);
        found.push({ line: n.line, text: stmtText(n), what, say: fill(t.say, vals), vals, rows: t.rows, pitfall: t.pitfall || null, model: vals.modelCls || null, path: vals.path || null });
      };
      const firstOptim = () => training.find((e) => e.kind === 'optim' && !e.todo);
      // GradScaler's objects (scaler = torch.amp.GradScaler(…)): their calls are its row's.
      const scalers = new Set();
      const isScaler = (call) => call && call.name === 'CallExpression' && L.grad_scaler.spellings.includes(name(call.kids[0]) || '');
      const findScalers = (n) => {
        if (n.name === 'ClassDefinition' || n.name === 'FunctionDefinition') return;
        if (n.name === 'AssignStatement') { const a = assign(n); if (a.targets.length === 1 && a.targets[0].name === 'VariableName' && isScaler(a.values[0])) scalers.add(a.targets[0].text); }
        n.kids.forEach(findScalers);
      };
      findScalers(root);
      // loss = loss / n (or loss /= n) in the loop around its backward(): the loss of one micro-batch.
      const divided = (loop, v) => {
        let hit = false;
        const look = (n) => {
          if (hit) return;
          if (n.name === 'AssignStatement') { const a = assign(n), b = a.values[0]; if (a.targets.length === 1 && a.targets[0].text === v && b && b.name === 'BinaryExpression' && b.kids[1].text === '/' && b.kids[0].text === v) hit = true; }
          if (n.name === 'UpdateStatement' && n.kids[0].text === v && n.kids[1].text === '/=') hit = true;
          n.kids.forEach(look);
        };
        if (loop) look(loop);
        return hit;
      };
      const visit = (n, loop) => {
        if (n.name === 'ClassDefinition') return;
        if (n.name === 'ForStatement' || n.name === 'WhileStatement') loop = n;
        if (n.name === 'CallExpression') {
          const callee = n.kids[0], d = dotted(callee) || '', full = name(callee) || '';
          const args = sig(kid(n, 'ArgList'));
          const recv = d.includes('.') ? d.slice(0, d.lastIndexOf('.')) : null;
          const meth = callee.name === 'MemberExpression' ? callee.kids[callee.kids.length - 1].text : d.split('.').pop();
          const o = firstOptim(), m0 = o && models.find((m) => m.cls === o.model);
          const vals = { optim: o ? o.var : 'optimizer', model: m0 ? snake(m0.cls) : 'model' };
          if (isScaler(n) || (recv && scalers.has(recv))) {
            add(n, 'grad_scaler', vals);
            // scaler.step(optimizer) steps that optimizer: a built one gets its step_<model>.
            const oo = meth === 'step' && args[0] && args[0].name === 'VariableName' && byVar(args[0].text, 'optim');
            const mm = oo && !oo.todo && models.find((m) => m.cls === oo.model);
            if (mm) add(n, 'optim_step', { optim: oo.var, model: snake(mm.cls) });
          }
          else if (/(^|\.)clip_grad_norm_?$/.test(full)) add(n, 'clip_grad_norm_', vals);
          else if (full === 'torch.save' && args[0] && args[0].name === 'CallExpression' && /\.state_dict$/.test(dotted(args[0].kids[0]) || '') && model(dotted(args[0].kids[0]).split('.')[0])) {
            const m = model(dotted(args[0].kids[0]).split('.')[0]);
            add(n, 'save', { model: snake(m.cls), modelCls: m.cls, path: args[1] && args[1].name === 'String' ? args[1].text : '"' + m.var + '.bpk"' });
            rules.save.use.forEach((u) => uses.add(u));
          } else if (full === 'torch.save' && args[0] && args[0].name === 'DictionaryExpression' && /\.state_dict\(\)/.test(args[0].text)) add(n, 'checkpoint', vals);
          else if (meth === 'load_state_dict' && recv && model(recv)) add(n, 'load_state_dict', Object.assign({}, vals, { model: snake(model(recv).cls) }));
          else if (meth === 'zero_grad' && recv && (byVar(recv, 'optim') || model(recv))) add(n, 'zero_grad', vals);
          else if (meth === 'backward') {
            let r = callee.kids[0];
            // scaler.scale(loss).backward(): the backward of loss (the scaling is GradScaler's row).
            if (r && r.name === 'CallExpression' && scalers.has((dotted(r.kids[0]) || '').replace(/\.scale$/, '')) && /\.scale$/.test(dotted(r.kids[0]) || '')) r = sig(kid(r, 'ArgList'))[0];
            const scaled = r && ((r.name === 'ParenthesizedExpression' && /\//.test(r.text)) || (r.name === 'VariableName' && divided(loop, r.text)));
            if (scaled) add(n, 'accumulate', vals); else if (o) add(n, 'backward', vals);
          } else if (meth === 'step' && recv && byVar(recv, 'optim') && !byVar(recv, 'optim').todo && o) {
            const oo = byVar(recv, 'optim'), mm = models.find((m) => m.cls === oo.model);
            add(n, 'optim_step', { optim: oo.var, model: mm ? snake(mm.cls) : 'model' });
          } else if (meth === 'step' && recv && byVar(recv, 'sched') && !byVar(recv, 'sched').todo) add(n, 'sched_step', { step: byVar(recv, 'sched').step });
        }
        n.kids.forEach((k) => visit(k, loop));
      };
      visit(root, null);
      found.sort((a, b) => a.line - b.line);
      // A backward() goes with the optimizer whose step() comes next (a GAN has two); when
      // several come before that step, their losses are summed.
      found.forEach((f, i) => {
        const j = found.findIndex((g, k) => k > i && g.what === 'optim_step');
        if (f.what !== 'backward' || j < 0) return;
        const prev = found.slice(0, j).map((g, k) => [g, k]).filter(([g]) => g.what === 'optim_step').map(([, k]) => k).pop();
        const many = found.slice(prev === undefined ? 0 : prev + 1, j).filter((g) => g.what === 'backward' || g.what === 'backward_sum').length > 1;
        const t = many ? L.backward_sum : L.backward;
        if (many) { f.what = 'backward_sum'; f.rows = t.rows; t.rows.forEach(note); }
        f.say = fill(t.say, found[j].vals);
      });
      found.forEach((f) => { delete f.vals; });
      return found;
    }
  }
  function esc(s) { return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\{/g, '{{').replace(/\}/g, '}}'); }

  // The script's `model = Net(...)`: the last top-level call of an nn.Module class.
  function findModel(top, byName, name, consts, initParams) {
    const found = [];
    for (const st of top.kids) {
      if (st.name !== 'AssignStatement') continue;
      const s = sig(st), val = s[s.length - 1];
      let call = val;
      while (call && call.name === 'CallExpression' && call.kids[0].name === 'MemberExpression' && call.kids[0].kids[0].name === 'CallExpression') call = call.kids[0].kids[0];
      if (!call || call.name !== 'CallExpression') continue;
      const callee = name(call.kids[0]);
      if (!byName[callee]) continue;
      // In __init__'s order: GPT(vocab_size=65) is its first parameter, 65 (a hole: not given).
      const al = kid(call, 'ArgList'), ps = initParams(byName[callee]);
      const given = initArgs(al, ps) || ps.map(() => null);
      const args = ps.map((p, i) => {
        const a = given[i];
        if (a === undefined) return undefined;
        const l = a && literal(a, consts);
        return { py: a ? a.text : p.name, v: l && (typeof l.v === 'number' || l.bool) ? l.v : null };
      });
      found.push({ cls: callee, line: st.line, args, var: s[0].text, text: al.text.split('\n').map((l) => l.trim()).join(' ') });
    }
    // One entry a class, its last construction, in the order of those.
    const last = {};
    found.forEach((m, i) => { last[m.cls] = i; });
    return found.filter((m, i) => last[m.cls] === i);
  }

  // ------------------------------------------------------------------ the crate
  // main.rs: with no argument it runs the model on data/weights.pt and data/input.json (check.py writes them).
  function mainRs(res, rules) {
    const lines = ['//! Written by the port generator: `cargo run --release` runs the model on data/weights.pt',
      '//! (the script\'s state_dict, written by check.py) and data/input.json and prints its outputs as',
      '//! JSON; check.py compares them with PyTorch\'s. `cargo run --release -- DIR` reads DIR instead;',
      '//! `-- MODEL DIR` runs another of the script\'s models (check.py writes data/MODEL/).',
      'mod model;', '', 'use std::path::Path;', '', 'use burn::prelude::*;', 'use burn::store::{ModuleSnapshot, PytorchStore};',
      'use model::*;', 'use serde_json::{json, Value};'].concat(res.trainUses.map((u) => 'use ' + u + ';'), ['']);
    const models = runnable(res);
    const lstmT = rules.modules['nn.LSTM'];
    const anyLstm = models.some((m) => lstmFields(res, m.cls).length);
    if (anyLstm) lines.splice(lines.length - 1, 0, ...lstmT.load.use.map((u) => 'use ' + u + ';'));
    if (!models.length) {
      const why = res.models.length ? 'forward takes more than one input; check.py gives it one' : 'the script builds no nn.Module subclass at its top level';
      lines.push('fn main() {', `    todo!("${why}");`, '}');
      return lines.join('\n') + '\n';
    }
    const main = models[models.length - 1];
    lines.push('fn main() {',
      '    let args: Vec<String> = std::env::args().collect();',
      '    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");',
      '    match args.get(1).map(String::as_str) {',
      '        Some("train") => train(),');
    for (const m of models.slice(0, -1)) lines.push(`        Some("${m.cls}") => forward_${snake(m.cls)}(&args.get(2).map(Into::into).unwrap_or(data.join("${m.cls}"))),`);
    lines.push(`        Some(dir) => forward_${snake(main.cls)}(Path::new(dir)),`,
      `        None => forward_${snake(main.cls)}(&data),`, '    }', '}');
    for (const m of models) {
      const cls = res.classes.find((c) => c.name === m.cls), fwd = cls.forward, p0 = fwd.params[0];
      const args = ctorArgs(m, cls).map((v, i) => argRust(v, cls.struct.params[i]));
      const remaps = seqPaths(res, cls.name, '');
      const lstms = lstmFields(res, cls.name);
      lines.push('', `fn forward_${snake(m.cls)}(dir: &Path) {`,
        '    let device = Device::flex();',
        `    // line ${m.line}: ${m.var} = ${m.cls}${m.text}`,
        `    let mut model = ${m.cls}::new(${args.concat(['&device']).join(', ')});`);
      const remapLines = remaps.map((r) => '\n        .with_key_remapping(' + r + ')').join('');
      if (!lstms.length) {
        lines.push('    // ' + rules.site + 'reference/#store-load_linear' + (remaps.length ? ' ' + rules.site + '08-save-load/' : ''),
          '    let mut store = PytorchStore::from_file(dir.join("weights.pt"))' + remapLines + ';',
          '    model.load_from(&mut store).expect("weights.pt");');
      } else {
        // PytorchStore cannot split an LSTM's stacked gates: it loads the other fields (only the
        // LSTMs' keys may be missing), then each LSTM layer is read gate by gate.
        const P = lstmT.pieces;
        const prefixes = lstms.map((f) => '"' + f.name + '."');
        lines.push('    // ' + link(rules, P.partial.row) + ' ' + link(rules, 'store-load_linear') + (remaps.length ? ' ' + rules.site + '08-save-load/' : ''),
          `    // PytorchStore cannot split an LSTM's stacked gates: the keys of ${lstms.map((f) => f.name).join(', ')} are missing here, loaded below`,
          '    let mut store = ' + fill(P.partial.code, { path: 'dir.join("weights.pt")' }) + remapLines + ';',
          '    let result = model.load_from(&mut store).expect("weights.pt");',
          `    let lstm_keys = [${prefixes.join(', ')}];`,
          '    let missing: Vec<&String> = result.missing.iter().map(|(p, _)| p).filter(|p| !lstm_keys.iter().any(|k| p.starts_with(k))).collect();',
          '    assert!(missing.is_empty(), "weights.pt lacks {missing:?}");');
        for (const f of lstms) {
          lines.push(`    // line ${f.line}: self.${f.name} = ${f.spelling}(…): each layer's gates, cut from PyTorch's stacked tensors`, '    // ' + link(rules, lstmT.load.row));
          for (let k = 0; k < f.lstm.n; k++) {
            const names = lstmT.load.tensors.map(([, , key]) => '"' + f.name + '.' + key + k + '"');
            lines.push(`    load_lstm(&mut store, &mut model.${f.name}[${k}], [${names.join(', ')}], &device);`);
          }
        }
      }
      lines.push(
        '    let input: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("input.json")).expect("input.json")).unwrap();',
        '    let shape: Vec<usize> = serde_json::from_value(input["shape"].clone()).unwrap();',
        `    let data: Vec<${p0.int ? 'i64' : 'f32'}> = serde_json::from_value(input["data"].clone()).unwrap();`,
        `    let x = Tensor::<${p0.rank}${p0.int ? ', Int' : ''}>::from_data(TensorData::new(data, shape), &device);`);
      // An Option output (a loss without targets) is null.
      const outs = leaves(fwd.ret, 'y').map(({ e, path }) => (e.optional || e.none ? `${path}.map(tensor_json).unwrap_or(Value::Null)` : `tensor_json(${path})`));
      for (const p of fwd.params.slice(1).filter((q) => q.state)) {
        const L = p.state, P = lstmT.pieces;
        const z = fill(P.zeros.code, { rank: 3, shape: [L.layersMain, 'batch', L.hiddenMain].join(', '), device: '&device' });
        lines.push(`    // ${p.name}: the LSTM's (h0, c0), zeros of [num_layers, batch, hidden_size], as check.py gives PyTorch`,
          '    // ' + link(rules, P.batch.row) + ' ' + link(rules, P.zeros.row),
          '    let batch = ' + fill(P.batch.code, { input: 'x', dim: L.batchDim }) + ';',
          `    let ${p.name} = (${z}, ${z});`);
      }
      lines.push(`    let y = model.forward(${['x'].concat(fwd.params.slice(1).map((p) => (p.state ? p.name : 'None'))).join(', ')});`,
        // Named out0, out1, …: the book's comparator walks an object, not a list of them.
        '    let outputs = json!({ ' + outs.map((o, i) => '"out' + i + '": ' + o).join(', ') + ' });',
        '    println!("{}", json!({ "outputs": outputs }));', '}');
    }
    lines.push(...['',
      'fn tensor_json<const D: usize>(t: Tensor<D>) -> Value {',
      '    let shape = t.dims().to_vec();',
      '    let data: Vec<f32> = t.into_data().convert::<f32>().try_to_vec().unwrap();',
      '    json!({ "shape": shape, "data": data })', '}', '',
    ].concat(anyLstm ? lstmLoader(Object.assign({ site: rules.site }, lstmT)) : [], trainFn(res, rules)));
    return lines.join('\n') + '\n';
  }
  const link = (rules, anchor) => rules.site + 'reference/#' + anchor;
  // The outputs of a forward in order, a nested tuple ((h_n, c_n)) flattened: the path of each.
  const leaves = (r, path) => (r.tuple ? r.tuple.flatMap((e, i) => leaves(e, path + '.' + i)) : [{ e: r, path }]);
  // The LSTM fields of a model's own struct (only there does main.rs load them).
  const lstmFields = (res, sname) => { const s = res.structs.find((x) => x.name === sname); return s ? s.fields.filter((f) => f.lstm) : []; };
  // An LSTM anywhere below the model's own fields: main.rs cannot load it yet.
  function nestedLstm(res, sname) {
    const s = res.structs.find((x) => x.name === sname);
    const deep = (name) => { const t = res.structs.find((x) => x.name === name); return !!t && t.fields.some((f) => f.lstm || deep(f.user || (f.seq && f.seq.name))); };
    return !!s && s.fields.some((f) => deep(f.user || (f.seq && f.seq.name)));
  }
  // load_lstm() and the row's read() and linear(): one LSTM layer's four stacked tensors, read,
  // cut by rows into the i, f, g, o gates and put into the layer's GateControllers.
  function lstmLoader(t) {
    const ld = t.load, vals = { store: 'store', device: 'device', lstm: 'lstm', file: 'weights.pt' };
    ld.tensors.forEach(([v], i) => { vals[v] = 'names[' + i + ']'; });
    const body = (piece) => fill(piece, vals).replace(/\n+$/, '').split('\n').map((l) => '    ' + l);
    return ['', '/// One layer of an nn.LSTM: PyTorch stacks its gates i, f, g, o in weight_ih_l{k} [4h, in],',
      '/// weight_hh_l{k} [4h, h], bias_ih_l{k} and bias_hh_l{k} (`names`); burn\'s Lstm has a GateController',
      '/// a gate. Each tensor is cut by rows into four, each block transposed into a Linear.',
      '/// ' + link({ site: t.site }, ld.row),
      '#[allow(unused_variables)]',
      'fn load_lstm(store: &mut PytorchStore, lstm: &mut Lstm, names: [&str; 4], device: &Device) {']
      .concat(body(ld.split), body(ld.set), ['}', ''], fill(ld.read_fn, vals).replace(/\n+$/, '').split('\n'), [''],
        fill(ld.linear_fn, vals).replace(/\n+$/, '').split('\n'));
  }
  // train(): the script's loss functions and optimizers, each from its row, and one optimizer
  // step a model (from the step row); the loop over the data stays a todo!().
  function trainFn(res, rules) {
    const link = (a) => rules.site + 'reference/#' + a;
    const L = ['', '/// The training objects of the script, each from its row; the loop over the data is not generated.', '#[allow(non_snake_case)]', 'fn train() {'];
    const built = res.training.filter((e) => !e.todo);
    const optims = built.filter((e) => e.kind === 'optim');
    if (!built.length) { L.push('    let device = Device::flex().autodiff();'); todoLines(L); loopComments(L); L.push('    todo!("the script builds no loss function or optimizer the generator knows: see README.md");', '}'); }
    else {
      L.push('    let device = Device::flex().autodiff();');
      for (const m of res.models.filter((m) => optims.some((o) => o.model === m.cls))) {
        const cls = res.classes.find((c) => c.name === m.cls);
        L.push(`    // line ${m.line}: ${m.var} = ${m.cls}${m.text}`,
          `    let ${m.var} = ${m.cls}::new(${ctorArgs(m, cls).map((v, i) => argRust(v, cls.struct.params[i])).concat(['&device']).join(', ')});`);
      }
      for (const e of res.training) {
        const text = e.text.length > 90 ? e.text.slice(0, 89) + '…' : e.text;
        // A scheduler burn has no template for: its row, named instead of guessed.
        if (e.todo) { if (e.link) L.push(todoLine(e)); continue; }
        L.push(`    // line ${e.line}: ${text}`, '    // ' + e.rows.map(link).join(' '));
        L.push(`    let ${e.kind === 'optim' || e.kind === 'sched' ? 'mut ' : ''}${e.var} = ${e.code};`);
        if (e.kind === 'optim') L.push(e.lr ? `    let ${e.var}_lr = ${e.lr};${e.lrFrom ? ` // ${e.lrText}: the default of its add_argument` : ''}` : `    let ${e.var}_lr: f64 = todo!("line ${e.line}: lr=${esc(e.lrText || '')} is known only when the script runs");`);
      }
      loopComments(L);
      L.push('    todo!("the loop over the data: each batch, its loss, then for each optimizer `model = step_<model>(model, &mut optimizer, loss, lr)`");', '}');
    }
    // A training object with a row but no template: its line, its text, why, and the row.
    function todoLine(e) {
      return `    // todo(line ${e.line}): ${e.text.length > 90 ? e.text.slice(0, 89) + '…' : e.text} (${e.todo}) ${link(e.link)}`;
    }
    function todoLines(L) {
      for (const e of res.training.filter((x) => x.todo && x.link)) L.push(todoLine(e));
    }
    function loopComments(L) {
      if (!res.loop.length) return;
      L.push("    // The script's training loop, statement by statement, in burn (each from its row):");
      for (const f of res.loop) {
        const text = f.text.length > 70 ? f.text.slice(0, 69) + '…' : f.text;
        L.push(`    // line ${f.line}: ${text}`, `    //     ${f.say}`, '    //     ' + f.rows.map(link).concat(f.pitfall ? [rules.site + f.pitfall + '/'] : []).join(' '));
      }
    }
    const done = new Set();
    for (const o of optims) {
      if (done.has(o.model)) continue;
      done.add(o.model);
      const st = rules.step;
      L.push('', `/// One optimizer step of ${o.model}: loss.backward(), then optimizer.step(); zero_grad() has no`,
        `/// counterpart (backward() returns fresh gradients). ${link(st.row)}`,
        `fn step_${snake(o.model)}(model: ${o.model}, optimizer: &mut ModuleOptimizer, loss: Tensor<1>, lr: f64) -> ${o.model} {`,
        '    let grads = ' + fill(st.code, { loss: 'loss', model: 'model' }) + ';',
        '    ' + fill(st.update, { optim: 'optimizer', lr: 'lr', model: 'model' }), '}');
    }
    const saved = new Set();
    for (const f of res.loop.filter((x) => x.what === 'save' && x.model)) {
      if (saved.has(f.model)) continue;
      saved.add(f.model);
      const sv = rules.save;
      L.push('', `/// torch.save(${f.text.match(/\(([^,]*),/) ? f.text.match(/\(([^,]*),/)[1] : 'model.state_dict()'}, …) (line ${f.line}), in burn's own format (burnpack). ${link(sv.row)}`,
        `fn save_${snake(f.model)}(model: &${f.model}, path: &str) {`);
      L.push(...fill(sv.code, { path: 'path', model: 'model' }).replace(/\n+$/, '').split('\n').map((l) => '    ' + l), '}');
    }
    return L;
  }
  const snake = (n) => n.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
  // The models check.py can run: built at the script's top level, forward with one input.
  // An LSTM's (h0, c0) after the input is given too (zeros), when main.rs can write its sizes.
  const runnable = (res) => res.models.filter((m) => {
    const c = res.classes.find((x) => x.name === m.cls);
    if (!c || !c.forward || !c.forward.params.length || nestedLstm(res, m.cls)) return false;
    const [p0, ...rest] = c.forward.params;
    return !p0.optional && !p0.state && rest.every((p) => p.optional || (p.state && p.state.hiddenMain));
  });
  // Every Sequential under a struct, as the store's key remapping: main.0.w → main.l0.w.
  function seqPaths(res, sname, prefix) {
    const s = res.structs.find((x) => x.name === sname), out = [];
    for (const f of s ? s.fields : []) {
      const path = prefix + f.name.replace(/\./g, '\\.');
      if (f.seq) out.push('r"^(' + path + ')\\.(\\d+)\\.", "$1.l$2."');
      // A Vec (nn.ModuleList) puts an index before its items' keys.
      if (f.user) out.push(...seqPaths(res, f.user, path + (f.list ? '\\.\\d+\\.' : '\\.')));
    }
    return out;
  }
  const standIn = () => 50;
  // The constructor's arguments as the script passes them, its defaults after them.
  function ctorArgs(m, cls) {
    return cls.struct.params.map((p, i) => (m.args[i] ? (m.args[i].v !== null ? m.args[i].v : standIn(i)) : p.def && p.def.v !== null ? p.def.v : standIn(i)));
  }


  function crate(text, rules, opts) {
    opts = opts || {};
    const res = port(text, rules, opts);
    // One entry a model the script builds; the last is the one `cargo run` runs on data/.
    const models = runnable(res).map((m) => {
      const cls = res.classes.find((c) => c.name === m.cls), p0 = cls.forward.params[0];
      const out = {
        model: m.cls, args: ctorArgs(m, cls),
        stand_ins: m.args.map((a, i) => (a && a.v === null ? { arg: i, script: a.py, value: standIn(i) } : null)).filter(Boolean),
        input: { int: !!p0.int, high: vocab(res, cls), shapes: shapes(p0, cls, res) },
        random_outputs: leaves(cls.forward.ret, '').map(({ e }, i) => (e.random ? i : -1)).filter((i) => i >= 0),
      };
      // forward(x, (h0, c0)): check.py gives both sides zeros of [layers, batch, hidden].
      const st = cls.forward.params.slice(1).find((p) => p.state);
      if (st) out.state = { layers: st.state.n, hidden: st.state.hidden, batch_dim: st.state.batchDim };
      return out;
    });
    const cfg = { models, tol: rules.tol };
    const files = {};
    for (const [k, v] of Object.entries(rules.crate)) files[k] = v;
    // The package is named after the script, so that two ports share a target dir safely; the
    // lock's root entry moves to its sorted place, as cargo writes it.
    const pkg = packageName(opts.script || 'script.py');
    files['Cargo.toml'] = files['Cargo.toml'].replace('name = "burn-port"', 'name = "' + pkg + '"');
    files['Cargo.lock'] = renameRoot(files['Cargo.lock'], 'burn-port', pkg);
    files['src/model.rs'] = res.modelRs;
    files['src/main.rs'] = mainRs(res, rules);
    files['port.json'] = JSON.stringify(cfg, null, 1) + '\n';
    files['script.py'] = text;
    files['run.sh'] = '#!/bin/sh\n# Build the crate, then compare its forward with the script\'s (check.py).\nset -e\ncd "$(dirname "$0")"\ncargo build --release --locked\npython3 check.py\n';
    files['README.md'] = readme(res, rules, opts, cfg);
    const names = Object.keys(files).sort();
    return { files: Object.fromEntries(names.map((k) => [k, files[k]])), todos: res.todos, rows: res.rowsUsed, pitfalls: res.pitfalls };
  }
  function packageName(script) {
    const stem = script.split(/[\\/]/).pop().replace(/\.pyw?$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    return (/^[a-z]/.test(stem) ? stem : 'script-' + stem) + '-burn';
  }
  function renameRoot(lock, from, to) {
    const parts = lock.split('\n[[package]]\n');
    const head = parts[0], blocks = parts.slice(1).map((b) => b.replace(/\n+$/, ''));
    const i = blocks.findIndex((b) => b.startsWith('name = "' + from + '"\n'));
    blocks[i] = blocks[i].replace('name = "' + from + '"', 'name = "' + to + '"');
    const key = (b) => /^name = "([^"]*)"\nversion = "([^"]*)"/.exec(b);
    blocks.sort((a, b) => { const x = key(a), y = key(b); return x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0; });
    return head + blocks.map((b) => '\n[[package]]\n' + b + '\n').join('');
  }
  // Token ids stay below the first embedding's size.
  function vocab(res, cls) {
    const st = res.structs.find((x) => x.name === cls.name);
    const e = st && st.fields.find((f) => f.spelling === 'nn.Embedding');
    return e && e.in0 ? e.in0 : 10;
  }
  function shapes(p0, cls, res) {
    // The first layer (in field order, into Sequentials and the script's own modules) that takes
    // an input like this one gives its size.
    const first = (sname, pred) => {
      const st = res.structs.find((x) => x.name === sname);
      for (const f of st ? st.fields : []) {
        if (f.t && pred(f)) return f;
        const sub = f.seq ? f.seq.name : f.user;
        const got = sub && first(sub, pred);
        if (got) return got;
      }
      return null;
    };
    if (p0.int) { const e = first(cls.name, (f) => f.spelling === 'nn.Embedding'); return [[2, 8]].map((s) => s).concat(e && e.in0 ? [] : []); }
    if (p0.rank === 4) {
      const f = first(cls.name, (x) => x.t.in_rank === 4);
      const chans = f && f.in0 ? [f.in0] : [1, 3];
      return chans.flatMap((c) => [32, 28, 64, 8, 16, 1].map((n) => [2, c, n, n]));
    }
    const lin = first(cls.name, (x) => x.spelling === 'nn.Linear' || x.spelling === 'nn.LSTM');
    const feat = lin && lin.in0 ? lin.in0 : 16;
    if (p0.rank === 3) return [[2, 8, feat]];
    return [[2, feat]];
  }

  function readme(res, rules, opts, cfg) {
    const L = ['# ' + (opts.script || 'script.py') + ' 的 burn crate（生成）', '',
      '由本书的移植生成器写出：脚本里每个 `nn.Module` 子类是 `src/model.rs` 里的一个 `#[derive(Module)]` 结构体，字段名就是脚本的属性名，所以脚本的 `state_dict` 能直接由 `PytorchStore` 载入。每一行生成的代码都来自 torch → burn 对照表里跑过的一行，旁边的注释是那一行的链接。', '',
      '## 运行', '', '```bash', 'sh run.sh    # cargo build --release --locked，然后 python3 check.py', '```', '',
      '`check.py` 只运行脚本里的 import、常量、函数和类定义，按脚本的写法建出模型（固定种子，eval 模式），把 `state_dict` 存成 `data/weights.pt`、输入存成 `data/input.json`，用同一个输入跑 PyTorch 和 burn 的 `forward`，再用本书的比较器（`compare.py`）比较。', ''];
    for (const m of cfg.models) {
      if (!m.stand_ins.length) continue;
      L.push(`构造 \`${m.model}\` 的参数有些要运行脚本才知道，这里先用了一个代替的值（在 \`port.json\` 的 \`args\` 和 \`src/main.rs\` 里改成真实的值）：`, '');
      for (const x of m.stand_ins) L.push(`- 第 ${x.arg + 1} 个参数 \`${x.script}\`：${x.value}`);
      L.push('');
    }
    if (!cfg.models.length) L.push('脚本的顶层没有建出一个 forward 只收一个输入的模型，`check.py` 没有可比的；`src/main.rs` 是 `todo!()`。', '');
    L.push('## 没有生成的（todo!）', '');
    if (!res.todos.length) L.push('没有：每个模块的构造和 forward 都生成了。训练循环不生成（`src/main.rs` 的 `train`）。');
    for (const t of res.todos) L.push(`- 第 ${t.line} 行（${t.where}）：\`${t.text.length > 100 ? t.text.slice(0, 99) + '…' : t.text}\`：${t.why}`);
    L.push('', '## 用到的对照表的行', '');
    for (const r of res.rowsUsed) L.push(`- [${r}](${rules.site}reference/#${r})`);
    if (res.pitfalls.length) { L.push('', '## 先读这些坑', ''); for (const p of res.pitfalls) L.push(`- ${rules.site}${p}/`); }
    L.push('', `共 ${res.structs.length} 个结构体，${res.todos.length} 处 todo!，用到对照表的 ${res.rowsUsed.length} 行。`, '');
    return L.join('\n');
  }

  const api = { port, crate, useParser, build: (t) => build(t) };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  if (typeof window !== 'undefined') window.BookPort = api;

  // node port.js --rules RULES.json --parser PYPARSE.js SCRIPT.py: the crate's files as JSON.
  if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
    const fs = require('fs');
    const argv = process.argv.slice(2);
    const opt = (k) => { const i = argv.indexOf(k); if (i < 0) return null; const v = argv[i + 1]; argv.splice(i, 2); return v; };
    const rulesPath = opt('--rules'), parserPath = opt('--parser'), name = opt('--name');
    if (!rulesPath || !parserPath || argv.length !== 1) { process.stderr.write('用法：node port.js --rules RULES.json --parser PYPARSE.js SCRIPT.py\n'); process.exit(2); }
    useParser(require(require('path').resolve(parserPath)));
    const rules = JSON.parse(fs.readFileSync(rulesPath, 'utf8'));
    process.stdout.write(JSON.stringify(crate(fs.readFileSync(argv[0], 'utf8'), rules, { script: name || argv[0] })) + '\n');
  }
})();
