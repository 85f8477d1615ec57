/* The .tar.gz of a generated crate (docs/assets/port.js's files), the same bytes in the browser
 * (the scan page's 「生成 burn crate」, docs/assets/port-page.js) and under node (`make port …
 * --tar`, book/commands/port.py): tarGz({path: text}, top) → Uint8Array. No zlib on either
 * side: ustar headers (mtime 0, uid/gid 0, mode 0644, 0755 for *.sh), every name under the
 * folder `top`, contents as UTF-8, then gzip with stored (uncompressed) deflate blocks, a CRC32
 * computed here, mtime 0 and OS 255. Files go in the order of their sorted paths. */
(function () {
  'use strict';
  const utf8 = (s) => new TextEncoder().encode(s);

  let table = null;
  function crc32(bytes) {
    if (!table) {
      table = new Uint32Array(256);
      for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c >>> 0;
      }
    }
    let c = 0xffffffff;
    for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  // One 512-byte ustar header; a name over 100 bytes is split at a '/' into prefix and name.
  function header(name, size, mode) {
    const h = new Uint8Array(512);
    const put = (at, len, s) => { const b = utf8(s); if (b.length > len) throw new Error('tar: too long: ' + s); h.set(b, at); };
    const oct = (at, len, n) => put(at, len, n.toString(8).padStart(len - 1, '0') + '\0');
    let prefix = '';
    if (utf8(name).length > 100) {
      let i = name.length;
      do i = name.lastIndexOf('/', i - 1); while (i > 0 && (utf8(name.slice(i + 1)).length > 100 || utf8(name.slice(0, i)).length > 155));
      if (i <= 0 || utf8(name.slice(i + 1)).length > 100) throw new Error('tar: name too long: ' + name);
      prefix = name.slice(0, i); name = name.slice(i + 1);
    }
    put(0, 100, name);
    oct(100, 8, mode);
    oct(108, 8, 0);
    oct(116, 8, 0);
    oct(124, 12, size);
    oct(136, 12, 0);
    h[156] = 0x30; // '0': a regular file
    put(257, 6, 'ustar\0');
    put(263, 2, '00');
    put(265, 32, 'root');
    put(297, 32, 'root');
    oct(329, 8, 0);
    oct(337, 8, 0);
    put(345, 155, prefix);
    h.fill(0x20, 148, 156); // the checksum counts its own field as spaces
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += h[i];
    put(148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
    return h;
  }

  function tar(files, top) {
    const parts = [];
    for (const path of Object.keys(files).sort()) {
      const body = utf8(files[path]);
      parts.push(header((top ? top + '/' : '') + path, body.length, path.endsWith('.sh') ? 0o755 : 0o644));
      parts.push(body, new Uint8Array((512 - (body.length % 512)) % 512));
    }
    parts.push(new Uint8Array(1024)); // two zero blocks end the archive
    return concat(parts);
  }

  function concat(parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  }

  // gzip (RFC 1952) around deflate's stored blocks (RFC 1951 §3.2.4), at most 65535 bytes each.
  function gzip(data) {
    const parts = [Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)];
    let at = 0;
    do {
      const len = Math.min(65535, data.length - at), last = at + len >= data.length;
      parts.push(Uint8Array.of(last ? 1 : 0, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff));
      parts.push(data.subarray(at, at + len));
      at += len;
    } while (at < data.length);
    const le = (n) => Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
    parts.push(le(crc32(data)), le(data.length >>> 0));
    return concat(parts);
  }

  const tarGz = (files, top) => gzip(tar(files, top));
  const api = { tarGz, tar, gzip, crc32 };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  if (typeof window !== 'undefined') window.BookTarGz = api;
})();
