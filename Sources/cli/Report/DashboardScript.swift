/// The served dashboard's one inline script. It only calls this server's routes, sends the read
/// token the user typed (kept in sessionStorage, so it ends with the tab) as `Authorization:
/// Bearer`, writes text with textContent (never as HTML), and checks hashes with WebCrypto.
enum DashboardScript {
    static let source = #"""
        'use strict';
        (function () {
          const TOKEN = 'journal.readToken';
          const $ = (id) => document.getElementById(id);
          function headers() {
            const token = sessionStorage.getItem(TOKEN);
            return token ? { Authorization: 'Bearer ' + token } : {};
          }
          async function get(path) {
            const response = await fetch(path, { headers: headers() });
            if (!response.ok) {
              let reason = String(response.status);
              try { reason += ': ' + (await response.json()).error; } catch (e) { /* not JSON */ }
              throw new Error(reason);
            }
            return response;
          }
          function cell(row, text, className) {
            const td = document.createElement('td');
            td.textContent = text;
            if (className) td.className = className;
            row.appendChild(td);
            return td;
          }

          // The token: a locked page fetches itself with it and shows the dashboard it gets.
          async function unlock() {
            const status = $('token-status');
            try {
              const response = await get('/' + location.search);
              const page = new DOMParser().parseFromString(await response.text(), 'text/html');
              const report = page.getElementById('report');
              document.getElementById('report').replaceWith(document.importNode(report, true));
              // The window, the event count and the bucket width replace the shell's note.
              const scope = $('scope');
              scope.textContent = '';
              for (const node of page.querySelector('.scope').children) \#
        scope.appendChild(document.importNode(node, true));
              const form = page.getElementById('window-form');
              if (form && !$('window-form')) $('token-form').before(document.importNode(form, true));
              document.title = page.title;
              status.textContent = 'signed in';
              $('token-form').hidden = true;
            } catch (error) {
              status.textContent = 'the server refused the token (' + error.message + ')';
              status.className = 'bad';
            }
          }
          $('token-form').addEventListener('submit', (event) => {
            event.preventDefault();
            sessionStorage.setItem(TOKEN, $('token').value.trim());
            unlock();
          });
          if ($('report').dataset.locked === 'true' && sessionStorage.getItem(TOKEN)) unlock();

          // Search, as journal find.
          $('find-form').addEventListener('submit', async (event) => {
            event.preventDefault();
            const query = new URLSearchParams();
            for (const [name, value] of new FormData(event.target)) if (String(value).trim()) \#
        query.append(name, String(value).trim());
            const status = $('find-status'), table = $('find-results'), body = table.querySelector('tbody');
            status.textContent = 'searching…';
            status.className = '';
            try {
              const found = await (await get('/v1/find?' + query)).json();
              body.textContent = '';
              for (const stream of found.streams) {
                const row = document.createElement('tr');
                const head = document.createElement('th');
                head.scope = 'row';
                head.textContent = stream.stream;
                row.appendChild(head);
                cell(row, stream.startedAt);
                cell(row, stream.outcome);
                cell(row, String(stream.events), 'num');
                const button = document.createElement('button');
                button.type = 'button';
                button.textContent = 'audit';
                button.className = 'audit-button';
                button.addEventListener('click', () => audit(stream.stream));
                row.appendChild(document.createElement('td')).appendChild(button);
                body.appendChild(row);
              }
              table.hidden = false;
              status.textContent = found.streams.length + ' stream' + (found.streams.length === 1 ? '' : 's') + ' found'
                + (found.truncated ? ' (more match: raise "at most")' : '');
            } catch (error) {
              status.textContent = 'search failed: ' + error.message;
              status.className = 'bad';
            }
          });

          // The raw text of a top-level value of an export line: the chain hashes the bytes of
          // data and meta as the journal stored them, which JSON.parse would not keep.
          function rawValue(line, key) {
            let p = 1;
            const skipString = (q) => { q++; while (line[q] !== '"') q += line[q] === '\\' ? 2 : 1; return q + 1; };
            const skipValue = (q) => {
              if (line[q] === '"') return skipString(q);
              if (line[q] === '{' || line[q] === '[') {
                let depth = 0;
                for (;;) {
                  const c = line[q];
                  if (c === '"') { q = skipString(q); continue; }
                  if (c === '{' || c === '[') depth++;
                  else if (c === '}' || c === ']') { depth--; if (depth === 0) return q + 1; }
                  q++;
                }
              }
              while (!',}]'.includes(line[q])) q++;
              return q;
            };
            while (line[p] !== '}') {
              const keyStart = p;
              p = skipString(p);
              const name = JSON.parse(line.slice(keyStart, p));
              p++;
              const valueStart = p;
              p = skipValue(p);
              if (name === key) return line.slice(valueStart, p);
              if (line[p] === ',') p++;
            }
            return null;
          }
          const utf8 = new TextEncoder();
          const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
          const fromHex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
          const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
          function concat(parts) {
            const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
            let offset = 0;
            for (const part of parts) { out.set(part, offset); offset += part.length; }
            return out;
          }
          const int64 = (value) => { const b = new Uint8Array(8); new \#
        DataView(b.buffer).setBigInt64(0, BigInt(value)); return b; };
          const sized = (bytes) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, \#
        bytes.length); return concat([b, bytes]); };
          const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));

          // The chain link of docs/eventstore.md: SHA-256 over "JRNLEV01", the previous hash,
          // position, version, stream, id, type, occurredAt, recordedAt, data and meta.
          async function linkHash(previous, event, line) {
            const meta = rawValue(line, 'meta');
            return hex(await sha256(concat([
              utf8.encode('JRNLEV01'), previous, int64(event.position), int64(event.version),
              sized(utf8.encode(event.stream)), sized(utf8.encode(JSON.parse(rawValue(line, 'id')))), \#
        sized(utf8.encode(event.type)),
              int64(Date.parse(event.occurredAt)), int64(Date.parse(event.recordedAt)),
              sized(utf8.encode(rawValue(line, 'data'))),
              meta === null ? new Uint8Array([0]) : concat([new Uint8Array([1]), sized(utf8.encode(meta))]),
            ])));
          }

          // RFC 9162 section 2.1.3.2: the root an inclusion proof leads to.
          async function rootFromProof(leafHash, index, size, proof) {
            let fn = index, sn = size - 1, r = leafHash;
            for (const p of proof) {
              if (sn === 0) return null;
              if (fn % 2 === 1 || fn === sn) {
                r = await sha256(concat([new Uint8Array([1]), p, r]));
                if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
              } else {
                r = await sha256(concat([new Uint8Array([1]), r, p]));
              }
              fn = Math.floor(fn / 2);
              sn = Math.floor(sn / 2);
            }
            return sn === 0 ? r : null;
          }

          async function audit(name) {
            const box = $('audit'), status = $('audit-status'), body = $('audit-events').querySelector('tbody');
            const proofStatus = $('proof-status');
            box.hidden = false;
            $('audit-heading').textContent = 'Audit of ' + name;
            status.textContent = 'checking…';
            status.className = '';
            proofStatus.textContent = '';
            proofStatus.className = '';
            body.textContent = '';
            if (!crypto.subtle) {
              status.textContent = 'this page cannot check hashes: WebCrypto needs https or a loopback address';
              status.className = 'bad';
              return;
            }
            try {
              const text = await (await get('/v1/streams/' + encodeURIComponent(name))).text();
              const lines = text.split('\n').filter((line) => line.length > 0);
              let good = 0, last = null, lastLine = null;
              for (const line of lines) {
                const event = JSON.parse(line);
                let previous = new Uint8Array(32);
                if (event.position > 1) {
                  const before = (await (await get('/v1/events?from=' + (event.position - 1) + \#
        '&limit=1')).text()).split('\n')[0];
                  previous = fromHex(JSON.parse(before).hash);
                }
                const ok = (await linkHash(previous, event, line)) === event.hash;
                if (ok) good++;
                const row = document.createElement('tr');
                const head = document.createElement('th');
                head.scope = 'row';
                head.textContent = String(event.version);
                row.appendChild(head);
                cell(row, String(event.position), 'num');
                cell(row, event.occurredAt);
                cell(row, event.type);
                cell(row, event.hash.slice(0, 16) + '…').title = event.hash;
                const check = cell(row, ok ? '✓ checks' : '✗ does not check', ok ? 'ok link' : 'bad link');
                check.dataset.check = ok ? 'ok' : 'bad';
                body.appendChild(row);
                last = event;
                lastLine = line;
              }
              status.textContent = good === lines.length ? lines.length + ' events: every chain link checks'
                : (lines.length - good) + ' of ' + lines.length + ' chain links do not check';
              status.className = good === lines.length ? 'ok' : 'bad';
              if (last) await proveLast(last, lastLine);
            } catch (error) {
              status.textContent = 'audit failed: ' + error.message;
              status.className = 'bad';
            }
          }

          async function proveLast(event, line) {
            const status = $('proof-status');
            let note;
            try {
              note = await (await get('/v1/checkpoint')).text();
            } catch (error) {
              status.textContent = error.message.startsWith('404') ? 'no checkpoint yet: sign one with \#
        journal checkpoint --key FILE'
                : 'cannot read the checkpoint: ' + error.message;
              return;
            }
            const [origin, sizeText, rootText] = note.split('\n');
            const size = Number(sizeText);
            // The witnesses' names on the checkpoint (journal cosign); like the log's signature,
            // the page does not check their cosignatures ('journal check --quorum' does).
            const cosigners = note.split('\n').filter((l) => l.startsWith('\u2014 '))
              .map((l) => l.split(' ')[1]).filter((name) => name !== origin);
            if (event.position > size) {
              status.textContent = 'the last event (position ' + event.position + ') is after the latest \#
        checkpoint (' + size + ' events)';
              return;
            }
            try {
              const proof = (await (await get('/v1/proof/' + event.position)).text()).split('\n');
              const extra = proof.find((l) => l.startsWith('extra ')).slice(6);
              const index = Number(proof.find((l) => l.startsWith('index ')).slice(6));
              const hashes = [];
              for (let i = proof.findIndex((l) => l.startsWith('index ')) + 1; i < \#
        proof.length && proof[i] !== ''; i++) {
                hashes.push(fromBase64(proof[i]));
              }
              const leaf = fromBase64(extra);
              const sameLine = new TextDecoder().decode(leaf) === line;
              const leafHash = await sha256(concat([new Uint8Array([0]), leaf]));
              const root = await rootFromProof(leafHash, index, size, hashes);
              const verified = sameLine && index === event.position - 1 && root !== null && hex(root) \#
        === hex(fromBase64(rootText));
              status.textContent = verified
                ? 'verified: event ' + event.position + ' is in the tree of ' + size + ' events signed by ' + origin
                  + (cosigners.length ? ', cosigned by ' + cosigners.join(', ') : '')
                  + ' (root ' + rootText + ', ' + hashes.length + ' proof hashes)'
                : 'failed: the proof of event ' + event.position + ' does not lead to the checkpoint\'s root';
              status.className = verified ? 'ok' : 'bad';
              status.dataset.proof = verified ? 'verified' : 'failed';
            } catch (error) {
              status.textContent = 'failed: ' + error.message;
              status.className = 'bad';
              status.dataset.proof = 'failed';
            }
          }
        })();
        """#
}
