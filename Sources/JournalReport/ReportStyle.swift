/// The report's one style sheet, inline: system fonts only, colours that print, tables beside
/// charts on a wide screen and under them on paper.
package enum ReportStyle {
    static let css = """
        :root { --ink: #1d2330; --muted: #5b6475; --line: #d5d9e0; --s0: #2f6fd0; --s1: #e0822a; \
        --s2: #2a9d6f; --s3: #b8456a; }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 1280px; padding: 1rem 1.5rem 3rem; color: var(--ink);
               font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        h1 { margin: .2rem 0 .4rem; font-size: 1.6rem; }
        h2 { margin: 2rem 0 .3rem; font-size: 1.25rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; }
        .intro { color: var(--muted); margin: .2rem 0 .8rem; max-width: 75ch; }
        .scope { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0 0 .6rem; }
        .scope dt { color: var(--muted); } .scope dd { margin: 0; font-variant-numeric: tabular-nums; }
        nav ul { list-style: none; padding: 0; margin: .4rem 0; display: flex; flex-wrap: wrap; gap: .3rem 1rem; }
        a { color: var(--s0); }
        .cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fit, \
        minmax(170px, 1fr)); gap: .8rem; }
        .card { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; display: \
        flex; flex-direction: column; }
        .card .name { color: var(--muted); font-size: .9rem; }
        .card .big { font-size: 1.7rem; font-weight: 600; font-variant-numeric: tabular-nums; }
        .card .of { color: var(--muted); font-size: .85rem; }
        figure { margin: .8rem 0 1.2rem; }
        figure.pair { display: grid; grid-template-columns: minmax(0, 4fr) minmax(0, 3fr); gap: \
        .4rem 1.2rem; align-items: start; }
        figure.pair > figcaption { grid-column: 1 / -1; font-weight: 600; font-size: 1.02rem; }
        .plot svg { width: 100%; height: auto; display: block; }
        figure.wide .plot { max-width: 960px; }
        .data.scroll { max-height: 22rem; overflow: auto; margin-top: .6rem; }
        .data { overflow-x: auto; }
        .data.alone { margin: .6rem 0 1rem; }
        table { border-collapse: collapse; font-size: .88rem; font-variant-numeric: tabular-nums; }
        caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
        th, td { padding: .15rem .45rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
        td.num, th.num { text-align: right; white-space: nowrap; }
        thead th { color: var(--muted); font-weight: 600; }
        svg text { font: 12px system-ui, "DejaVu Sans", sans-serif; fill: var(--ink); }
        svg text.label { fill: var(--muted); }
        svg .s0 { fill: var(--s0); } svg .s1 { fill: var(--s1); } \
        svg .s2 { fill: var(--s2); } svg .s3 { fill: var(--s3); }
        svg path.line { fill: none; stroke-width: 2.2; }
        svg path.line.s0 { stroke: var(--s0); } svg path.line.s1 { stroke: var(--s1); }
        svg path.line.s2 { stroke: var(--s2); } svg path.line.s3 { stroke: var(--s3); }
        svg .volume { fill: #e6e9ef; } svg .axis { fill: var(--muted); }
        svg path.grid { stroke: var(--line); stroke-width: 1; fill: none; }
        svg path.axis-line { stroke: var(--muted); stroke-width: 1; fill: none; }
        form { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0; }
        label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
        input, select, button { font: inherit; padding: .2rem .4rem; }
        .ok { color: #1d7a4f; font-weight: 600; } .bad { color: #b3261e; font-weight: 600; }
        .partial { color: #8a5a00; font-weight: 600; }
        .scope dd code { font-size: .85em; word-break: break-all; }
        .simulated-banner { margin: .3rem 0 .6rem; padding: .4rem .7rem; border-left: 4px solid #e0822a;
                            background: #fdf3e7; max-width: 75ch; }
        td.fields { font: .8rem/1.35 ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre-wrap;
                    min-width: 14rem; max-width: 28rem; overflow-wrap: anywhere; }
        td.fields .changed { background: #fdf3e7; font-weight: 600; }
        td.fields details { margin-top: .2rem; } td.fields summary { color: var(--muted); cursor: pointer; }
        td.nowrap { white-space: nowrap; }
        [hidden] { display: none !important; }
        .tag { font-size: .75rem; color: var(--muted); border: 1px solid var(--line); border-radius: 3px;
               padding: 0 .25rem; margin-left: .3rem; }
        @media (max-width: 900px) { figure.pair { grid-template-columns: 1fr; } }
        @media print {
          body { max-width: none; padding: 0; font-size: 11pt; }
          nav, form, .live-only { display: none; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          figure.pair { grid-template-columns: 1fr; }
          figure, table, .cards { break-inside: avoid; }
          h2 { break-after: avoid; }
          .data.scroll { max-height: none; overflow: visible; }
          a { color: inherit; text-decoration: none; }
        }
        """
}
