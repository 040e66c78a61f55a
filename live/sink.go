package live

import "github.com/hecscope/hecscope/ingest"

// Sink takes a stream's events as they arrive. A Stream calls it from one
// goroutine; the Sink must let other goroutines read what it built.
type Sink interface {
	// Add takes the next events of the stream, in stream order. The
	// events, and their Data and Raw, are valid only during the call. A
	// stream joined mid-run begins with a join mark (ingest.JoinMark).
	Add(evs []ingest.Event)
	// End says that the stream is over and every event has been added;
	// st is how the stream ended.
	End(st ingest.Status)
}
