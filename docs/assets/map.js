// The torch → burn map (docs/reference.md, book/pages/reference.py), and the loader of its
// companion page's scanner (first block below). On every other page this
// does nothing. On the map: the filter above the tables (show only 「不同」, 「没有」 or both;
// book.css hides the rows), a link to a row the filter hides shows all rows again, and each
// row's 「完整程序」 opens its experiment's program, read in the browser from the row's
// download (the .tar.gz the link points at), with the lines of this row marked.
// 「扫描你的脚本」 (docs/scan.md): its scanner (scan.js, about 14 KB gzip) is fetched on that
// page only, and not from a <script> in the page's text, where the walks allow none; so is
// port-page.js, its 「生成 burn crate」 button (a few hundred bytes; the generator waits for a press).
(() => {
  const box = document.getElementById('book-scan');
  if (!box || document.querySelector('script[data-book-scan]')) return;
  for (const name of ['scan', 'port-page']) {
    const s = document.createElement('script');
    s.src = new URL(box.dataset.base + 'assets/' + name + '.js', location.href).href;
    s.dataset.bookScan = name;
    document.head.append(s);
  }
})();

(() => {
  const bar = document.querySelector('.ref-filter');
  if (!bar) return;
  const scope = bar.closest('article') || document.body;
  const tables = [...scope.querySelectorAll('table.ref-table')];
  const SHOWN = {differs: ['differs'], none: ['none'], both: ['differs', 'none']};
  const current = () => (bar.querySelector('input:checked') || {}).value || 'all';
  const shows = (tr, v) => !SHOWN[v] || SHOWN[v].includes(tr.dataset.verdict);
  const headerBottom = () => {
    const h = document.querySelector('.md-header');
    return (h ? h.getBoundingClientRect().bottom : 0) + bar.getBoundingClientRect().height;
  };

  // The first row at the top of the screen, or null when the tables are not on it yet.
  function rowAtTop() {
    const top = headerBottom();
    for (const t of tables) {
      if (t.getBoundingClientRect().bottom < top) continue;
      for (const tr of t.tBodies[0].rows)
        if (tr.getClientRects().length && tr.getBoundingClientRect().bottom > top)
          return tr.getBoundingClientRect().top < innerHeight ? tr : null;
    }
    return null;
  }

  function apply(v) {
    const keep = rowAtTop();
    const before = keep && keep.getBoundingClientRect().top;
    if (v === 'all') delete scope.dataset.refShow; else scope.dataset.refShow = v;
    for (const t of tables) {
      const empty = ![...t.tBodies[0].rows].some(tr => shows(tr, v));
      t.classList.toggle('ref-empty', empty);
      const h = t.previousElementSibling;
      if (h && h.localName === 'h2') h.classList.toggle('ref-empty', empty);
    }
    if (!keep) return;
    // Stay where the reader was: the same row, or the next one still shown.
    const rows = tables.flatMap(t => [...t.tBodies[0].rows]);
    const next = rows.slice(rows.indexOf(keep)).find(tr => shows(tr, v));
    if (next) scrollBy(0, next.getBoundingClientRect().top - (next === keep ? before : headerBottom()));
  }

  function showAll() {
    const all = bar.querySelector('input[value="all"]');
    if (all && !all.checked) { all.checked = true; apply('all'); }
  }

  // A row link (#anchor, a 「改法」 link, a search result) to a row the filter hides.
  function reveal(id) {
    const tr = id && document.getElementById(id);
    if (tr && tr.closest('table.ref-table') && !shows(tr, current())) {
      showAll();
      return tr;
    }
    return null;
  }

  // Burn code: each line its own box, so that a line too long for the cell wraps (at a space)
  // 4 columns in from its own indentation. A line's indentation stays with its first token
  // (and a short first word with the next: no line that is only spaces or `use`), and 1e-6
  // never breaks at its hyphen. The text is unchanged:
  // inline-blocks add no line break to the innerText the copy button copies.
  const whole = text => {
    const nb = document.createElement('span');
    nb.className = 'nb';
    nb.textContent = text;
    return nb;
  };
  for (const code of scope.querySelectorAll('pre.ref-code > code')) {
    const lines = code.textContent.split('\n');
    code.replaceChildren(...lines.flatMap((line, i) => {
      const s = document.createElement('span');
      s.className = 'ln';
      s.style.setProperty('--in', line.search(/\S|$/) + 'ch');
      const [, head, rest] = line.match(/^(\s*(?:\S{1,4} +)?\S*)(.*)$/);  // `use burn::…` stays one
      if (head) s.append(whole(head));
      rest.split(/([\w.]+-[\w.]+)/).forEach((part, k) => { if (part) s.append(k % 2 ? whole(part) : part); });
      return i ? ['\n', s] : [s];
    }));
    code.classList.add('ref-lines');
  }

  bar.hidden = false;
  bar.addEventListener('change', e => apply(e.target.value));
  if (current() !== 'all') apply(current());  // a choice the browser kept on going back
  addEventListener('hashchange', () => {
    const tr = reveal(decodeURIComponent(location.hash.slice(1)));
    if (tr) tr.scrollIntoView();
  });
  scope.addEventListener('click', e => {
    const a = e.target.closest('a[href^="#"]');
    if (a) reveal(decodeURIComponent(a.getAttribute('href').slice(1)));
  });

  // ---- a row's whole program -----------------------------------------------------------

  scope.addEventListener('click', e => {
    const a = e.target.closest('a.ref-prog');
    if (!a || !('DecompressionStream' in window) || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    openProgram(a).catch(err => { viewer().querySelector('pre').textContent = '读不出这个下载包：' + err; });
  });

  let dialog = null;
  function viewer() {
    if (dialog) return dialog;
    dialog = document.createElement('dialog');
    dialog.className = 'ref-viewer';
    dialog.innerHTML = '<header><strong></strong><a download></a><button type="button" value="close">关闭</button>' +
      '</header><nav class="ref-files" aria-label="文件"></nav><nav class="ref-hits" aria-label="这一行在文件里"></nav>' +
      '<pre tabindex="0"></pre>';
    dialog.querySelector('button[value="close"]').addEventListener('click', () => dialog.close());
    dialog.addEventListener('click', e => { if (e.target === dialog) dialog.close(); });
    document.body.append(dialog);
    return dialog;
  }

  const archives = new Map();  // url → Promise of [{path, text}]
  async function files(url) {
    if (!archives.has(url)) archives.set(url, (async () => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(res.status + ' ' + url);
      let bytes = new Uint8Array(await res.arrayBuffer());
      // A server may already have undone the gzip (Content-Encoding): only gunzip gzip.
      if (bytes[0] === 0x1f && bytes[1] === 0x8b)
        bytes = new Uint8Array(await new Response(new Blob([bytes]).stream()
          .pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
      return untar(bytes);
    })());
    return archives.get(url);
  }

  // ustar with pax headers, as book/site/downloads/package.py writes it; text files only.
  function untar(b) {
    const out = [], ascii = new TextDecoder(), utf8 = new TextDecoder('utf-8', {fatal: true});
    const field = (o, n) => ascii.decode(b.subarray(o, o + n)).replace(/\0.*$/s, '');
    let pax = null;
    for (let o = 0; o + 512 <= b.length;) {
      if (b[o] === 0) break;
      const size = parseInt(field(o + 124, 12).trim() || '0', 8);
      const type = String.fromCharCode(b[o + 156] || 48);
      const prefix = field(o + 345, 155);
      let path = (prefix ? prefix + '/' : '') + field(o, 100);
      const body = b.subarray(o + 512, o + 512 + size);
      o += 512 + Math.ceil(size / 512) * 512;
      if (type === 'x') { const m = utf8.decode(body).match(/\d+ path=([^\n]*)\n/); pax = m && m[1]; continue; }
      if (type === 'g') continue;
      if (pax) { path = pax; pax = null; }
      if (type !== '0' && type !== '\0') continue;
      try { out.push({path: path.split('/').slice(1).join('/'), text: utf8.decode(body)}); } catch (_) { /* binary */ }
    }
    return out;
  }

  // Burn first (the map's code comes from the crate), then PyTorch, then the rest.
  const rank = p => p.endsWith('/src/main.rs') ? 0 : p.startsWith('crates/') && !p.endsWith('Cargo.lock') ? 1
    : p.endsWith('.py') && !p.endsWith('compare.py') ? 2 : p === 'requirements.txt' ? 3 : p.endsWith('Cargo.lock') ? 9 : 5;

  // The lines of a file that belong to a row: its module (burn) or function (PyTorch), and
  // where the program names it. The view opens at the first place main calls it (its inputs
  // and weights are made there), else at the module or function.
  function marks(path, lines, row) {
    const esc = row.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const named = new RegExp(`(^|[^\\w:])(r#)?${esc}::|["']${esc}["']|\\{id: ${esc},|^  - id: ${esc}\\s*$`);
    const rs = path.endsWith('.rs');
    const start = rs ? new RegExp(`^mod (r#)?${esc} \\{`) : path.endsWith('.py') ? new RegExp(`^def ${esc}\\(`) : null;
    const hit = new Set();
    let inside = false, begin = -1, call = -1;
    lines.forEach((line, i) => {
      if (start && start.test(line)) { inside = true; begin = i; hit.add(i); return; }
      if (inside) {
        // A module ends at its `}` in column 0; a function at the next line in column 0.
        const end = rs ? /^\}/.test(line) : /^\S/.test(line);
        if (!end || rs) { hit.add(i); if (!end) return; }
        inside = false;
        if (rs) return;
        for (let j = i - 1; j > begin && !lines[j].trim(); j--) hit.delete(j);
      }
      if (named.test(line)) { hit.add(i); if (call < 0) call = i; }
    });
    // Where the program names the row, the lines between (its inputs, its weights) and the
    // rest of a statement that goes on below (row("gru", json!({...}))).
    const named_at = [...hit].filter(i => named.test(lines[i])).sort((a, b) => a - b);
    named_at.forEach((i, k) => {
      const next = named_at[k + 1];
      if (next !== undefined && next - i <= 8) for (let j = i; j < next; j++) hit.add(j);
      for (let j = i; j < i + 6 && j + 1 < lines.length && rs && !/[;{}]\s*$/.test(lines[j]); j++) hit.add(j + 1);
    });
    return {hit, first: call >= 0 ? call : begin};
  }

  function show(d, file, row) {
    const pre = d.querySelector('pre'), lines = file.text.replace(/\n$/, '').split('\n');
    const {hit, first} = marks(file.path, lines, row);
    pre.replaceChildren(...lines.map((line, i) => {
      const s = document.createElement('span');
      s.textContent = line;
      s.style.setProperty('--in', line.search(/\S|$/) + 'ch');
      if (hit.has(i)) s.className = 'hit';
      return s;
    }));
    for (const b of d.querySelectorAll('.ref-files button')) b.setAttribute('aria-pressed', String(b.title === file.path));
    const jumps = d.querySelector('.ref-hits');
    const starts = [...hit].filter(i => !hit.has(i - 1));
    jumps.replaceChildren(...(starts.length ? [document.createTextNode(`${row}：`)] : []), ...starts.slice(0, 8).map(i => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `第 ${i + 1} 行`;
      b.addEventListener('click', () => { pre.scrollTop = pre.children[Math.max(0, i - 2)].offsetTop - pre.offsetTop; });
      return b;
    }));
    const to = first >= 0 ? first : 0;
    pre.scrollTop = 0;
    const above = pre.children[Math.max(0, to - 2)];  // two lines of context above it
    if (above) pre.scrollTop = above.offsetTop - pre.offsetTop;
  }

  async function openProgram(a) {
    const url = a.href, exp = url.split('/').pop().replace(/\.tar\.gz$/, '');
    const tr = a.closest('tr');
    const row = tr ? tr.id.slice(exp.split('-').slice(2).join('-').length + 1) : '';
    const d = viewer();
    d.querySelector('strong').textContent = `完整程序：${exp}` + (row ? `（${row} 这一行）` : '');
    const dl = d.querySelector('a[download]');
    dl.href = url;
    dl.textContent = `下载 ${exp}.tar.gz`;
    d.querySelector('pre').textContent = '读取中…';
    d.querySelector('.ref-files').replaceChildren();
    d.querySelector('.ref-hits').replaceChildren();
    if (!d.open) d.showModal();
    const all = (await files(url)).slice().sort((x, y) => rank(x.path) - rank(y.path) || x.path.localeCompare(y.path));
    d.querySelector('.ref-files').replaceChildren(...all.map(f => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = f.path.split('/').pop();
      b.title = f.path;
      b.addEventListener('click', () => show(d, f, row));
      return b;
    }));
    // The row's topic file of the crate (src/<topic>.rs holds its module), else main.rs.
    const esc = row.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const mod = new RegExp(`^mod (r#)?${esc} \\{`, 'm');
    show(d, (row && all.find(f => f.path.endsWith('.rs') && mod.test(f.text))) || all[0], row);
  }
})();
