/// The served dashboard's one inline script. It only calls this server's routes, sends the read
/// token the user typed (kept in sessionStorage, so it ends with the tab) as `Authorization:
/// Bearer`, writes text with textContent (never as HTML), and checks hashes (SHA-256) and the
/// checkpoint's signature (Ed25519, with the verifier key the user gave) with WebCrypto.
package enum DashboardScript {
    static let source = #"""
        'use strict';
        (function () {
          const TOKEN = 'journal.readToken';
          // The verifier key the checkpoint's signature is checked with: public, kept in this browser.
          const KEY = 'journal.verifierKey';
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
              for (const node of page.querySelector('.scope').children) scope.appendChild(document.importNode(node, \#
        true));
              const form = page.getElementById('window-form');
              if (form && !$('window-form')) $('token-form').before(document.importNode(form, true));
              document.title = page.title;
              const banner = page.querySelector('.simulated-banner');
              if (banner && !document.querySelector('.simulated-banner')) scope.after(document.importNode(banner, \#
        true));
              status.textContent = 'signed in';
              $('token-form').hidden = true;
              showCheckpointSignature();
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
            for (const [name, value] of new FormData(event.target)) if (String(value).trim()) query.append(name, \#
        String(value).trim());
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
          const int64 = (value) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, \#
        BigInt(value)); return b; };
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

          // C2SP signed-note, as Go's note.Open with one key: the key's id must be SHA-256(name, 0x0A,
          // 0x01, key)'s first 4 bytes, the checkpoint's origin the key's name, and a signature line of
          // that name and id must hold an Ed25519 signature of the note's text (the lines before the
          // blank line). Signature lines of other names (witnesses' cosignatures) are not checked here.
          const failed = (text) => ({ state: 'failed', text });
          async function checkSignature(note, keyText) {
            if (!keyText) {
              return { state: 'unchecked', text: 'signature not checked: no verifier key given (the field at the \#
        top)' };
            }
            if (!crypto.subtle) {
              return { state: 'unchecked', text: 'signature not checked: WebCrypto needs https or a loopback address' };
            }
            // name+id+key: the name has no '+', the base64 key may.
            const first = keyText.indexOf('+'), second = keyText.indexOf('+', first + 1);
            const name = keyText.slice(0, first), id = keyText.slice(first + 1, second).toLowerCase();
            let key;
            try {
              key = first > 0 && second > first && /^[0-9a-f]{8}$/.test(id) ? fromBase64(keyText.slice(second + 1)) \#
        : null;
            } catch (error) { key = null; }
            if (!key) return failed('signature not checked: the verifier key is not name+id+key');
            if (key.length !== 33 || key[0] !== 1) return failed('the verifier key is not an Ed25519 key');
            const computed = hex((await sha256(concat([utf8.encode(name), new Uint8Array([10]), key]))).slice(0, 4));
            if (computed !== id) return failed('the verifier key is damaged: its id does not match its name and key');
            const end = note.indexOf('\n\n');
            if (end < 0) return failed('the checkpoint is not a signed note');
            const text = note.slice(0, end + 1);
            const origin = text.split('\n')[0];
            if (origin !== name) {
              return failed('the checkpoint is the log ' + origin + '\'s, the verifier key is ' + name + '\'s');
            }
            let signature = null;
            for (const line of note.slice(end + 2).split('\n')) {
              if (!line.startsWith('\u2014 ' + name + ' ')) continue;
              let bytes;
              try { bytes = fromBase64(line.slice(name.length + 3)); } catch (error) { continue; }
              if (bytes.length === 68 && hex(bytes.slice(0, 4)) === id) signature = bytes.slice(4);
            }
            if (!signature) return failed('the checkpoint has no signature by the key ' + name + '+' + id);
            let publicKey;
            try {
              publicKey = await crypto.subtle.importKey('raw', key.slice(1), { name: 'Ed25519' }, false, ['verify']);
            } catch (error) {
              return {
                state: 'unchecked',
                text: 'signature not checked in this browser: its WebCrypto has no Ed25519 (' + error.name
                  + '); journal verify --checkpoint FILE --key VKEY checks it',
              };
            }
            const good = await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, signature, utf8.encode(text));
            return good ? { state: 'verified', text: 'Ed25519 signature of ' + name + '+' + id + ' checked in this \#
        page' }
              : failed('the signature of ' + name + '+' + id + ' does not verify: the checkpoint is not the one '
                + 'that key signed');
          }
          const stateClass = (state) => (state === 'verified' ? 'ok' : state === 'failed' ? 'bad' : 'partial');

          // The header's checkpoint line: its signature, checked with the key given here.
          async function showCheckpointSignature() {
            const span = $('checkpoint-signature'), line = $('checkpoint');
            if (!span || !line) return;
            let note;
            try {
              note = await (await get('/v1/checkpoint')).text();
            } catch (error) {
              span.textContent = 'Signature not checked: the checkpoint cannot be read (' + error.message + ').';
              return;
            }
            const size = note.split('\n')[1];
            let result;
            if (size !== line.dataset.size) {
              result = { state: 'unchecked', text: 'signature not checked: the journal kept a newer checkpoint ('
                + size + ' events) since this page was made; reload it' };
            } else {
              result = await checkSignature(note, localStorage.getItem(KEY) || '');
            }
            span.textContent = result.text.charAt(0).toUpperCase() + result.text.slice(1) + '.';
            span.dataset.signature = result.state;
            span.className = stateClass(result.state);
          }
          let audited = null;
          $('verifier-key').value = localStorage.getItem(KEY) || '';
          $('key-form').addEventListener('submit', (event) => {
            event.preventDefault();
            const key = $('verifier-key').value.trim();
            if (key) localStorage.setItem(KEY, key); else localStorage.removeItem(KEY);
            $('key-status').textContent = key ? 'kept in this browser' : 'no key: signatures are not checked';
            showCheckpointSignature();
            if (audited) audit(audited);
          });
          if ($('report').dataset.locked !== 'true') showCheckpointSignature();

          // An object's fields, one "key: value" line each (`keys`: those only, in that order).
          const shown = (value) => (value === undefined ? '(gone)' : typeof value === 'string' ? value : \#
        JSON.stringify(value));
          function fields(element, object, keys) {
            element.className = 'fields';
            keys = keys || Object.keys(object);
            keys.forEach((key, index) => {
              const line = element.appendChild(document.createElement('span'));
              line.textContent = key + ': ' + shown(object[key]) + (index < keys.length - 1 ? '\n' : '');
            });
            return element;
          }
          // The state after an event: the fields it changed (the first event: those it set), marked,
          // then the whole state, folded.
          function stateCell(td, state, previous) {
            td.className = 'fields';
            const keys = Object.keys(state);
            if (previous) for (const key of Object.keys(previous)) if (!(key in state)) keys.push(key);
            const changed = keys.filter((key) => (previous ? JSON.stringify(previous[key]) !== \#
        JSON.stringify(state[key])
              : state[key] !== null));
            const list = fields(td.appendChild(document.createElement('div')), state, changed);
            if (previous) for (const line of list.children) line.className = 'changed';
            changed.forEach((key, index) => { if (previous) list.children[index].dataset.changed = key; });
            if (changed.length === 0) list.textContent = previous ? '(no field changed)' : '(every field null)';
            const whole = td.appendChild(document.createElement('details'));
            whole.appendChild(document.createElement('summary')).textContent = 'whole state ('
              + Object.keys(state).length + ' fields)';
            fields(whole.appendChild(document.createElement('div')), state);
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
            audited = name;
            const box = $('audit'), status = $('audit-status'), body = $('audit-events').querySelector('tbody');
            const proofStatus = $('proof-status'), replayStatus = $('replay-status');
            box.hidden = false;
            $('audit-heading').textContent = 'Audit of ' + name;
            status.textContent = 'checking…';
            status.className = '';
            for (const line of [proofStatus, replayStatus]) {
              line.textContent = '';
              line.className = '';
              delete line.dataset.proof;
              delete line.dataset.signature;
              delete line.dataset.replay;
            }
            body.textContent = '';
            if (!crypto.subtle) {
              status.textContent = 'this page cannot check hashes: WebCrypto needs https or a loopback address';
              status.className = 'bad';
              return;
            }
            try {
              const text = await (await get('/v1/streams/' + encodeURIComponent(name))).text();
              // The state after each event, as journal replay STREAM --format json gives it.
              let replay = null, replayError = '';
              try {
                replay = await (await get('/v1/replay/' + encodeURIComponent(name))).json();
              } catch (error) {
                replayError = error.message;
              }
              const states = new Map((replay ? replay.steps : []).map((step) => [step.version, step.state]));
              const lines = text.split('\n').filter((line) => line.length > 0);
              let good = 0, last = null, lastLine = null, previousState = null;
              for (const line of lines) {
                const event = JSON.parse(line);
                let previous = new Uint8Array(32);
                if (event.position > 1) {
                  const from = '/v1/events?from=' + (event.position - 1) + '&limit=1';
                  const before = (await (await get(from)).text()).split('\n')[0];
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
                cell(row, event.occurredAt, 'nowrap');
                const type = cell(row, event.type);
                if (event.meta && event.meta.simulated === true) {
                  const tag = type.appendChild(document.createElement('span'));
                  tag.className = 'tag';
                  tag.textContent = 'simulated';
                  type.dataset.simulated = 'true';
                }
                const check = cell(row, ok ? '✓ checks' : '✗ does not check', ok ? 'ok link nowrap' : 'bad link \#
        nowrap');
                check.dataset.check = ok ? 'ok' : 'bad';
                const data = fields(cell(row, ''), event.data || {});
                if (!data.textContent) data.textContent = '(none)';
                const state = cell(row, '');
                state.dataset.state = 'none';
                if (states.has(event.version)) {
                  stateCell(state, states.get(event.version), previousState);
                  state.dataset.state = 'folded';
                  previousState = states.get(event.version);
                } else if (replay && !replay.ok && replay.failedAtVersion === event.version) {
                  state.textContent = '✗ does not fold: ' + replay.reason;
                  state.className = 'bad';
                  state.dataset.state = 'fails';
                } else {
                  state.textContent = replay ? '–' : 'not available';
                }
                cell(row, event.hash.slice(0, 16) + '…').title = event.hash;
                body.appendChild(row);
                last = event;
                lastLine = line;
              }
              status.textContent = good === lines.length ? lines.length + ' events: every chain link checks'
                : (lines.length - good) + ' of ' + lines.length + ' chain links do not check';
              status.className = good === lines.length ? 'ok' : 'bad';
              if (!replay) {
                replayStatus.textContent = 'the state after each event is not available: ' + replayError;
                replayStatus.className = 'bad';
              } else if (replay.ok) {
                replayStatus.textContent = 'replay: the ' + replay.events + ' events fold under the current rules; '
                  + 'the state after each is in the table (changed fields marked)';
                replayStatus.className = 'ok';
                replayStatus.dataset.replay = 'ok';
              } else {
                replayStatus.textContent = 'replay: the stream no longer folds at version ' + replay.failedAtVersion
                  + ' (position ' + replay.failedAtPosition + '): ' + replay.reason;
                replayStatus.className = 'bad';
                replayStatus.dataset.replay = 'fails';
              }
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
              status.textContent = error.message.startsWith('404') ? 'no checkpoint yet: sign one with journal \#
        checkpoint --key FILE'
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
              status.textContent = 'the last event (position ' + event.position + ') is after the latest checkpoint \#
        (' + size + ' events)';
              return;
            }
            try {
              const proof = (await (await get('/v1/proof/' + event.position)).text()).split('\n');
              const extra = proof.find((l) => l.startsWith('extra ')).slice(6);
              const index = Number(proof.find((l) => l.startsWith('index ')).slice(6));
              const hashes = [];
              for (let i = proof.findIndex((l) => l.startsWith('index ')) + 1; i < proof.length && proof[i] !== ''; \#
        i++) {
                hashes.push(fromBase64(proof[i]));
              }
              const leaf = fromBase64(extra);
              const sameLine = new TextDecoder().decode(leaf) === line;
              const leafHash = await sha256(concat([new Uint8Array([0]), leaf]));
              const root = await rootFromProof(leafHash, index, size, hashes);
              const proven = sameLine && index === event.position - 1 && root !== null
                && hex(root) === hex(fromBase64(rootText));
              status.dataset.proof = proven ? 'verified' : 'failed';
              if (!proven) {
                status.textContent = 'NOT verified: the proof of event ' + event.position
                  + ' does not lead to the checkpoint\'s root';
                status.className = 'bad';
                status.dataset.signature = 'unchecked';
                return;
              }
              const signature = await checkSignature(note, localStorage.getItem(KEY) || '');
              status.dataset.signature = signature.state;
              status.className = stateClass(signature.state);
              const tree = 'event ' + event.position + ' is in the tree of ' + size + ' events';
              const cosigned = cosigners.length
                ? ' (cosigned by ' + cosigners.join(', ') + '; cosignatures not checked in this page)' : '';
              const proofText = 'inclusion proof checked in this page (root ' + rootText + ', ' + hashes.length
                + ' proof hashes)';
              if (signature.state === 'verified') {
                status.textContent = 'verified: ' + tree + ' signed by ' + origin + ': ' + proofText + ', '
                  + signature.text + cosigned;
              } else if (signature.state === 'failed') {
                status.textContent = 'NOT verified: ' + tree + ' of the checkpoint of ' + origin + ' (' + proofText
                  + '), but ' + signature.text + cosigned;
              } else {
                status.textContent = 'partly checked: ' + tree + ' of the checkpoint of ' + origin + ' (' + proofText
                  + '); ' + signature.text + cosigned;
              }
            } catch (error) {
              status.textContent = 'NOT verified: ' + error.message;
              status.className = 'bad';
              status.dataset.proof = 'failed';
            }
          }
        })();
        """#
}
