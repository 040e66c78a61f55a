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
//   - Session.Current: the stream to show, which changes only once a new
//     stream's header has arrived (a reconnect that fails, or a connection
//     that brings nothing, never takes away what is shown);
//     Session.Streams lists every stream so far.
//   - Session.Status: the state in words (connecting, waiting for a writer,
//     header received and waiting for the first block — with the reason
//     for a GHC 9.0 RTS —, receiving with events/s, bytes and the age of
//     the newest data, ended, failed and why; "joined at 12.4s" for a
//     stream joined mid-run), and the same as fields.
//   - Session.Changed: a channel told when the status or the current
//     stream changes (the app may also just refresh on a timer).
//   - Session.Reconnect and Session.SetAutoReconnect.
//   - Stream.RecordingPath (for Save to Library, or to open the run as a
//     file), Stream.ReaderAt and Stream.Recorded (to decode detail from the
//     recording while it grows), Stream.JoinedAt, Stream.Sink.
//
// Pausing and following are the view's business: the session never stops
// recording or feeding the model; a paused view just keeps drawing the
// model snapshot it has.
package live
