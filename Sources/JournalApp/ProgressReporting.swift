/// The progress line of a long operation (import, copy, replay): the command line's progress
/// reporter, or nothing.
package protocol ProgressReporting: AnyObject {
    /// `done` units (bytes or events) and `events` so far; cheap when called often.
    func update(done: Int64, events: Int64)
    /// Takes the line off the terminal before another line is written.
    func clear()
    /// The final line.
    func finish(done: Int64, events: Int64)
}
