// 「生成 burn crate（.tar.gz）」 beside 「扫描」 on the scan page (docs/scan.md; map.js loads this
// file there only). The page's first view carries nothing else: the first press fetches the
// parser (assets/pyparse.js, unless the scanner already did), the generator (assets/port.js),
// the archiver (assets/targz.js) and the rules (assets/port-rules.json), then downloads
// burn-port.tar.gz, the same bytes as `python -m book.commands.port SCRIPT OUT.tar.gz --tar`.
(() => {
  const NAME = 'burn-port.tar.gz';
  const load = (url) => new Promise((ok, fail) => {
    const s = document.createElement('script');
    s.src = url; s.onload = ok; s.onerror = () => fail(new Error('取不到 ' + url));
    document.head.append(s);
  });
  function page() {
    const box = document.getElementById('book-scan');
    const scanButton = box && box.querySelector('.scan-form button');
    if (!scanButton || box.querySelector('button[data-book-port]')) return;
    const at = (p) => new URL((box.dataset.base || '') + p, location.href).href;
    const input = box.querySelector('textarea'), out = box.querySelector('.scan-report');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'md-button';
    button.style.marginLeft = '.5em';
    button.dataset.bookPort = '';
    button.textContent = '生成 burn crate（.tar.gz）';
    scanButton.after(button);
    let rules = null, runs = 0;
    button.addEventListener('click', async () => {
      button.disabled = true;
      out.textContent = '生成中…';
      try {
        if (!window.BookPyParse) await load(at('assets/pyparse.js'));
        if (!window.BookPort) await load(at('assets/port.js'));
        if (!window.BookTarGz) await load(at('assets/targz.js'));
        if (!rules) {
          const res = await fetch(at('assets/port-rules.json'));
          if (!res.ok) throw new Error(`规则文件 ${res.status}`);
          rules = await res.json();
        }
        window.BookPort.useParser(window.BookPyParse);
        const res = window.BookPort.crate(input.value, rules, { script: 'script.py' });
        const bytes = window.BookTarGz.tarGz(res.files, 'burn-port');
        const url = URL.createObjectURL(new Blob([bytes], { type: 'application/gzip' }));
        const a = document.createElement('a');
        a.href = url; a.download = NAME;
        document.body.append(a); a.click(); a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60000);
        out.textContent = `已生成 ${NAME}：${Object.keys(res.files).length} 个文件，${res.todos.length} 处 todo!，` +
          `用到对照表的 ${res.rows.length} 行（解开后 sh run.sh 核对）`;
      } catch (e) {
        out.textContent = '生成失败：' + e.message;
      } finally {
        button.disabled = false;
        out.dataset.portRuns = String(++runs);
      }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', page); else page();
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(page);
})();
