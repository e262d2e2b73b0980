/// The accessible frame every chart shares: `role="img"`, a `<title>` and a `<desc>` the SVG
/// is labelled by, and a viewBox so it scales to the page's width.
package enum ChartFrame {
    static func svg(id: String, title: String, summary: String, width: Double, height: Double, body: String) -> String {
        let titleID = "\(id)-title"
        let descID = "\(id)-desc"
        return "<svg class=\"chart\"" + HTML.attribute("id", id)
            + " role=\"img\"" + HTML.attribute("aria-labelledby", "\(titleID) \(descID)")
            + " viewBox=\"0 0 \(HTML.coordinate(width)) \(HTML.coordinate(height))\" "
            + "preserveAspectRatio=\"xMinYMin meet\">"
            + "<title" + HTML.attribute("id", titleID) + ">\(HTML.escape(title))</title>"
            + "<desc" + HTML.attribute("id", descID) + ">\(HTML.escape(summary))</desc>"
            + body + "</svg>"
    }
}
