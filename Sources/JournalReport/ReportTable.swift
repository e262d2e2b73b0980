/// The data table behind a chart (or standing alone): a caption, column headings, rows; the
/// first column heads its row.
package struct ReportTable {
    var caption: String
    var columns: [String]
    var rows: [[ReportCell]]

    var html: String {
        var out = "<table><caption>\(HTML.escape(caption))</caption>\n<thead><tr>"
        for column in columns { out += "<th scope=\"col\">\(HTML.escape(column))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                let tag = index == 0 ? "th scope=\"row\"" : "td"
                let close = index == 0 ? "th" : "td"
                let kind = cell.isNumber ? " class=\"num\"" : ""
                out += "<\(tag)\(kind)\(cell.dataAttributes)>\(HTML.escape(cell.text))</\(close)>"
            }
            out += "</tr>\n"
        }
        if rows.isEmpty {
            out += "<tr><td colspan=\"\(max(1, columns.count))\">nothing in this window</td></tr>\n"
        }
        return out + "</tbody></table>"
    }
}
