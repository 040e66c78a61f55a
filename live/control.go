package live

import (
	"errors"
	"fmt"

	"github.com/hecscope/hecscope/ingest"
)

// ControlRefusal says why the session cannot send control commands to the
// program ("" when it can, while connected): a FIFO or a growing file
// carries the eventlog one way. A program built without eventlog-socket's
// control feature cannot be told from one with it (the protocol answers
// nothing): it ignores commands, which the stream then shows.
func (s *Session) ControlRefusal() string {
	return ingest.ControlRefusal(s.url)
}

// ErrNotConnected is returned by Send between connections.
var ErrNotConnected = errors.New("not connected to the program")

// Send sends a control command to the program on the connection being
// read (the program's eventlog-socket, or a relay, which passes it on).
func (s *Session) Send(cmd ingest.Command) error {
	if why := s.ControlRefusal(); why != "" {
		return fmt.Errorf("sending %s: %s", cmd, why)
	}
	s.mu.Lock()
	src := s.src
	s.mu.Unlock()
	if src == nil {
		return fmt.Errorf("sending %s: %w", cmd, ErrNotConnected)
	}
	return src.Send(cmd)
}
