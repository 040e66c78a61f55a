// Package live watches a running program's eventlog: a Session connects to
// a live source (tcp://, unix://, fifo://, follow://, see
// ingest.OpenSource), records every stream it receives, feeds the stream's
// events to a model, says in words what is happening, and reconnects. It
// has no user interface: the app's live window shows a Session, the tests
// drive one headless.
//
// # Data flow
//
// For each connection, one goroutine does nothing but read the source into
// the stream's recording (an ingest.Recorder: whole events only, on disk),
// as fast as the program writes, so that the program never waits for the
// viewer. Another goroutine per stream reads the recording back and gives
// its events, in batches, to the stream's Sink (by default Models: the
// timeline, heap and summary models). A model that falls behind only
// delays the picture; Stats says by how many bytes.
//
// A connection can carry several streams one after the other (hecscope
// relay sends the program's next run on the same connection); each is a
// Stream with its own recording and sink.
//
// # What the app gets
//
//   - Session.Status: the stream to show (Status.Stream), which changes
//     only once a new stream's header has arrived (a reconnect that fails,
//     or a connection that brings nothing, never takes away what is
//     shown), and its statistics; Session.Streams lists every stream so
//     far. Status also gives the state in words (connecting, waiting for
//     a writer, a socket connected that sends nothing — with what that
//     usually means —, header received and waiting for the first block —
//     with the reason for a GHC 9.0 RTS —, receiving with events/s, bytes
//     and the age of the newest data, ended, failed and why, stopped
//     retrying; "joined at 12.4s" for a stream joined mid-run), and the
//     same as fields.
//   - Session.Changed: a channel told when the status or the current
//     stream changes (the app may also just refresh on a timer).
//   - Session.Reconnect and Session.SetAutoReconnect.
//   - Stream.RecordingPath (for Save to Library, or to open the run as a
//     file), Stream.ReaderAt and Stream.Recorded (to decode detail from the
//     recording while it grows), Stream.JoinedAt, Stream.Sink.
//
// # Reconnecting
//
// With auto-reconnect, the session follows ingest.Retry, the policy the
// relay follows too, so that a viewer never hammers the program it
// watches: it pauses 0.1 s before a reconnection, doubling after each
// failed attempt up to 5 s, and at least 1 s from the third failure in a
// row on. An attempt fails if the source could not be opened, or if its
// connection ended before an eventlog header and some events arrived (a
// socket that accepts and closes, or sends something that is not an
// eventlog); each failed connection is closed before the pause. After
// five attempts in a row that failed the same way, the session stops and
// Status says why; Reconnect (or turning auto-reconnect on again) starts
// afresh. A socket that is not there or refuses is waited for, as long as
// it takes, at the same pace.
//
// GHC's eventlog-socket library serves one client at a time: a second
// client is connected, but gets nothing until the first leaves. When a
// socket has sent nothing for 1.5 s, Status says so, what it usually
// means, and that hecscope relay lets several viewers share the program.
//
// Pausing and following are the view's business: the session never stops
// recording or feeding the model; a paused view just keeps drawing the
// model snapshot it has.
package live
