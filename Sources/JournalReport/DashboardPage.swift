import EventStore
import JournalCore
import Projections

/// The page `journal serve` answers at `GET /`: the report of ``ReportPage`` rendered from the
/// read models at request time, a form to choose its window, and a stream browser (search as
/// `journal find`, a stream's events with their data, their chain links recomputed in the page
/// and the state after each (`GET /v1/replay/{stream}`), and the inclusion proof of its last
/// event and the checkpoint's Ed25519 signature checked with WebCrypto). Everything is inline;
/// the script talks to this server's JSON routes only.
package enum DashboardPage {
    package static func page(_ data: ReportData) -> String {
        var page = ReportPage(data: data)
        page.preface = windowForm(data.window) + tokenForm(hidden: true) + keyForm
        page.appendix = streamBrowser + apiList
        page.script = DashboardScript.source
        page.head = icon
        return page.html
    }

    /// Served with 401 when the server wants a token and the browser sent none: the same shell
    /// with the token form; the script fetches the page with the token and shows it.
    package static let locked: String =
        ReportPage.top(title: "journal analytics: a token is needed", head: icon) + """
            <dl class="scope" id="scope"><dt>access</dt><dd>this server needs a read token</dd></dl>
            \(tokenForm(hidden: false))
            \(keyForm)
            </header>
            <main id="report" data-locked="true"></main>
            \(streamBrowser)
            \(apiList)
            <script>
            \(DashboardScript.source)
            </script>
            </body>
            </html>

            """

    /// The dashboard's `Content-Security-Policy`: its one script by SHA-256 (the text between
    /// its `<script>` tags), inline styles, the inline icon, requests to this server only; no
    /// plug-in, frame, base or form target elsewhere. A script injected into the page would not run.
    package static let contentSecurityPolicy: String = {
        let digest = (try? EventHashing.sha256(Array(("\n" + DashboardScript.source + "\n").utf8))) ?? []
        return "default-src 'none'; script-src 'sha256-\(Base64.encode(digest))'; style-src 'unsafe-inline'; "
            + "img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }()

    /// An empty icon inline: without it the browser asks the server for /favicon.ico.
    static let icon = #"<link rel="icon" href="data:,">"#

    static func windowForm(_ window: QueryWindow) -> String {
        """
        <form id="window-form" method="get" action="/" class="live-only">
        <label>since (included)<input name="since" id="since" placeholder="2026-11-29" \
        value="\(HTML.escape(window.since?.description ?? ""))"></label>
        <label>until (excluded)<input name="until" id="until" placeholder="2026-11-30T12:00:00.000Z" \
        value="\(HTML.escape(window.until?.description ?? ""))"></label>
        <button type="submit">show this window</button>
        </form>
        """
    }

    static func tokenForm(hidden: Bool) -> String {
        """
        <form id="token-form" class="live-only"\(hidden ? " hidden" : "")>
        <label>read token<input type="password" id="token" autocomplete="off"></label>
        <button type="submit">use this token</button>
        <span id="token-status" role="status"></span>
        </form>
        """
    }

    /// The verifier key the page checks the checkpoint's signature with. It is public; the page
    /// keeps it in localStorage. The journal holds no verifier key, and one the server handed out
    /// would prove nothing about the server.
    static let keyForm = """
        <form id="key-form" class="live-only">
        <label>verifier key of the checkpoint's signer (public: name+id+key)<input id="verifier-key" size="58" \
        autocomplete="off" spellcheck="false" placeholder="payments.example/journal+20fed972+AVBD…"></label>
        <button type="submit">check the signature with this key</button>
        <span id="key-status" role="status"></span>
        </form>
        """

    static let apiList = """
        <section id="api" class="live-only" aria-labelledby="api-heading">
        <h2 id="api-heading">The API behind this page</h2>
        <ul>
        <li><code>POST /v1/events</code>: append NDJSON events (Content-Type: application/x-ndjson)</li>
        <li><a href="/v1/events?limit=100"><code>GET /v1/events?from=P&amp;limit=N&amp;wait=S</code></a>: the log from \
        a position, long-poll with wait</li>
        <li><code>GET /v1/streams/{stream}</code>: one stream's events</li>
        <li><a href="/v1/query/rates"><code>GET /v1/query/{name}?since=T&amp;until=T&amp;every=D</code></a>: analytics \
        (otp, timeouts, funnel, challenges, errors, idv, latency, rates)</li>
        <li><a href="/v1/find?limit=20"><code>GET \
        /v1/find?category=C&amp;outcome=O&amp;ds=RID&amp;since=T&amp;until=T&amp;limit=N</code></a>: streams, as \
        journal find</li>
        <li><code>GET /v1/checkpoint</code>, <code>GET /v1/proof/{position}</code>, <code>GET \
        /v1/bundle/{stream}</code>: evidence</li>
        <li><code>GET /v1/replay/{stream}</code>: the stream folded event by event, as journal replay STREAM \
        --format json</li>
        <li><a href="/metrics"><code>GET /metrics</code></a>: Prometheus metrics; <a href="/healthz"><code>GET \
        /healthz</code></a>: liveness</li>
        </ul>
        </section>
        """

    static let streamBrowser = """
        <section id="streams" class="live-only" aria-labelledby="streams-heading">
        <h2 id="streams-heading">Stream browser</h2>
        <p class="intro">Search the streams by start time, outcome and IDs (as journal find), \
        then open one: its events with
        their data, each chain link recomputed here (SHA-256 of the previous hash and the event's fields), the state
        after each event (journal replay), and the inclusion proof of its last event checked against the latest
        checkpoint (RFC 6962) and the checkpoint's signature checked with the verifier key above (Ed25519), in this
        page.</p>
        <form id="find-form">
        <label>category<select name="category"><option \
        value="">any</option><option>3ds</option><option>card</option></select></label>
        <label>outcome<input name="outcome" placeholder="completedY"></label>
        <label>directory server<input name="ds" placeholder="A000000003"></label>
        <label>since<input name="since" placeholder="2026-11-29"></label>
        <label>until<input name="until"></label>
        <label>3DS server trans ID<input name="server-trans-id"></label>
        <label>ACS trans ID<input name="acs-trans-id"></label>
        <label>digital card ID<input name="digital-card-id"></label>
        <label>correlation ID<input name="correlation-id"></label>
        <label>at most<input name="limit" value="20" size="4"></label>
        <button type="submit">find streams</button>
        </form>
        <p id="find-status" role="status"></p>
        <div class="data alone"><table id="find-results" hidden><caption>Streams found</caption>
        <thead><tr><th scope="col">stream</th><th scope="col">started</th><th scope="col">outcome</th><th \
        scope="col">events</th><th scope="col">audit</th></tr></thead>
        <tbody></tbody></table></div>
        <div id="audit" hidden>
        <h3 id="audit-heading">Audit</h3>
        <p id="audit-status" role="status"></p>
        <p id="replay-status" role="status"></p>
        <div class="data alone"><table id="audit-events"><caption>Events, their chain links and the state after \
        each (changed fields marked)</caption>
        <thead><tr><th scope="col">version</th><th scope="col">position</th><th scope="col">occurredAt</th><th \
        scope="col">type</th><th scope="col">link</th><th scope="col">data</th><th scope="col">state after</th><th \
        scope="col">hash</th></tr></thead>
        <tbody></tbody></table></div>
        <h3>Inclusion proof of the last event and the checkpoint's signature</h3>
        <p id="proof-status" role="status"></p>
        </div>
        </section>
        """
}
