package ingest

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The control protocol of Well-Typed's eventlog-socket library (version
// 0.1.3.0, protocol version 0: cbits/eventlog_socket/control.c and the
// eventlog-socket-control package): a client of the program's eventlog
// socket writes, on the same connection that brings it the eventlog,
//
//	F0 9E 97 8C       magic (U+1E5CC in UTF-8)
//	00                protocol version
//	LEN NAMESPACE     a namespace: its length in bytes (1–255), then UTF-8
//	ID                a command id, one byte
//
// and the program runs the command registered under that namespace and id.
// Nothing is sent back: a program built without the library's control
// feature, or one that knows no such command, ignores it.

// ControlProtocolVersion is the version of eventlog-socket's control
// protocol that hecscope speaks.
const ControlProtocolVersion = 0

// controlMagic begins every control message.
var controlMagic = [4]byte{0xF0, 0x9E, 0x97, 0x8C}

// BuiltinNamespace is the namespace of eventlog-socket's own commands.
const BuiltinNamespace = "eventlog-socket"

// A Command is one control command: a namespace and a command id in it.
type Command struct {
	Namespace string
	ID        uint8
}

// BuiltinCommand is one of eventlog-socket's own commands, named as its
// Haskell API (GHC.Eventlog.Socket.Control) names it.
type BuiltinCommand struct {
	Name string
	Command
	// Does says what the command makes the program do.
	Does string
}

// BuiltinCommands are the commands every program with eventlog-socket's
// control feature knows.
var BuiltinCommands = []BuiltinCommand{
	{"startProfiling", Command{BuiltinNamespace, 1}, "starts the cost-centre profiler's timer (a -prof program)"},
	{"stopProfiling", Command{BuiltinNamespace, 2}, "stops the cost-centre profiler's timer"},
	{"startHeapProfiling", Command{BuiltinNamespace, 3}, "starts heap profiling: a census every -i interval (a program run with +RTS -h…)"},
	{"stopHeapProfiling", Command{BuiltinNamespace, 4}, "stops the heap profiling timer: no more censuses until started again"},
	{"requestHeapCensus", Command{BuiltinNamespace, 5}, "takes one heap census at the next collection (a program run with +RTS -h…)"},
}

// ParseCommand reads a command as the CLI and the relay's log write it: a
// built-in command's name (requestHeapCensus; case and dashes do not
// matter: request-heap-census), or NAMESPACE:ID for a program's own
// commands (my-app:3; the id from 0 to 255).
func ParseCommand(s string) (Command, error) {
	fold := strings.ReplaceAll(strings.ToLower(s), "-", "")
	for _, b := range BuiltinCommands {
		if fold == strings.ToLower(b.Name) {
			return b.Command, nil
		}
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return Command{}, fmt.Errorf("control command %q: not a built-in command (%s) nor NAMESPACE:ID", s, builtinNames())
	}
	id, err := strconv.ParseUint(s[i+1:], 10, 8)
	if err != nil {
		return Command{}, fmt.Errorf("control command %q: the id must be a number from 0 to 255", s)
	}
	c := Command{Namespace: s[:i], ID: uint8(id)}
	if err := c.check(); err != nil {
		return Command{}, err
	}
	return c, nil
}

func builtinNames() string {
	names := make([]string, len(BuiltinCommands))
	for i, b := range BuiltinCommands {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}

// check reports why c cannot be sent, nil if it can.
func (c Command) check() error {
	switch {
	case c.Namespace == "":
		return errors.New("control command: the namespace is empty")
	case len(c.Namespace) > 255:
		return fmt.Errorf("control command: the namespace is %d bytes, the most is 255", len(c.Namespace))
	case !utf8.ValidString(c.Namespace):
		return errors.New("control command: the namespace is not UTF-8")
	}
	return nil
}

// WhyNoCensus says, for a reader, why a census request can bring no census
// to the stream: what the program needs, and what GHC 9.0's RTS and the
// eventlog-socket library were seen to do with census events.
const WhyNoCensus = "A census needs a program run with +RTS -h… and built with eventlog-socket's control feature. " +
	"A GHC 9.0 RTS keeps census events in its global buffer until the program exits, so they reach the stream only then " +
	"(and on a Unix socket eventlog-socket loses that last flush in most runs: use TCP, or GHC ≥ 9.2 with --eventlog-flush-interval)."

// MakesCensus reports whether c is one of the built-in commands that
// should bring heap censuses (startHeapProfiling, requestHeapCensus): what
// a viewer watches the stream for after sending it.
func (c Command) MakesCensus() bool {
	return c.Namespace == BuiltinNamespace && (c.ID == 3 || c.ID == 5)
}

// String returns the built-in command's name, or NAMESPACE:ID.
func (c Command) String() string {
	for _, b := range BuiltinCommands {
		if b.Command == c {
			return b.Name
		}
	}
	return fmt.Sprintf("%s:%d", c.Namespace, c.ID)
}

// Encode returns the message that sends c.
func (c Command) Encode() []byte {
	b := append([]byte(nil), controlMagic[:]...)
	b = append(b, ControlProtocolVersion, byte(len(c.Namespace)))
	b = append(b, c.Namespace...)
	return append(b, c.ID)
}

// controlParser reads control messages out of what a client sends, in
// chunks of any size, as the library's parser does: a byte that does not
// continue a message starts the search for the magic again.
type controlParser struct {
	state uint8 // 0–3: magic bytes matched; 4: version; 5: length; 6: namespace; 7: id
	nsLen int
	ns    []byte
}

// feed parses b and calls each for every whole message in it.
func (p *controlParser) feed(b []byte, each func(Command)) {
	for _, c := range b {
		switch {
		case p.state < 4 && c == controlMagic[p.state],
			p.state == 4 && c == ControlProtocolVersion:
			p.state++
		case p.state == 5 && c != 0:
			p.nsLen, p.ns, p.state = int(c), p.ns[:0], 6
		case p.state == 6:
			p.ns = append(p.ns, c)
			if len(p.ns) == p.nsLen {
				p.state = 7
			}
		case p.state == 7:
			p.state = 0
			each(Command{Namespace: string(p.ns), ID: c})
		default:
			p.state = 0
			if c == controlMagic[0] {
				p.state = 1
			}
		}
	}
}

// ControlRefusal says why commands cannot be sent to the live source at
// rawURL ("" when they can): only a socket carries them back to the
// program; a FIFO and a growing file go one way.
func ControlRefusal(rawURL string) string {
	addr, err := parseSource(rawURL)
	if err != nil {
		return err.Error()
	}
	switch addr.scheme {
	case "fifo":
		return "a FIFO carries the eventlog one way: commands need the program's socket (eventlog-socket) or a relay reading it"
	case "follow":
		return "a growing file carries the eventlog one way: commands need the program's socket (eventlog-socket) or a relay reading it"
	}
	return "" // tcp, unix
}

// ErrNoControl is returned by Source.Send for a source that carries no
// commands (a FIFO, a growing file).
var ErrNoControl = errors.New("this source takes no control commands")

// controlWriteTimeout bounds how long sending a command may take: a
// program whose socket buffer is full is not waited for.
const controlWriteTimeout = 2 * time.Second

// Send sends cmd to the program on the other end of the source's
// connection: the program itself (eventlog-socket), or a relay, which
// passes it on. A FIFO or a growing file takes none (ErrNoControl, with
// the reason). Send may be called while another goroutine reads.
func (s *Source) Send(cmd Command) error {
	if err := cmd.check(); err != nil {
		return err
	}
	c, ok := s.ReadCloser.(net.Conn)
	if !ok {
		return fmt.Errorf("sending %s: %w: %s", cmd, ErrNoControl, ControlRefusal(s.URL))
	}
	c.SetWriteDeadline(time.Now().Add(controlWriteTimeout))
	defer c.SetWriteDeadline(time.Time{})
	if _, err := c.Write(cmd.Encode()); err != nil {
		return fmt.Errorf("sending %s to %s: %w", cmd, s.Desc, err)
	}
	return nil
}

// Send sends cmd on the watched connection, if it takes commands (a socket
// Source): the relay reads its source through a Watcher.
func (w *Watcher) Send(cmd Command) error {
	if s, ok := w.r.(commandSender); ok {
		return s.Send(cmd)
	}
	return fmt.Errorf("sending %s: %w", cmd, ErrNoControl)
}
