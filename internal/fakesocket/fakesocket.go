// Package fakesocket imitates, for tests, a GHC 9.0.2 program that serves
// its eventlog with Well-Typed's eventlog-socket library (0.1.3.0), as
// rudely as the real one does (read from its cbits/eventlog_socket/
// worker.c and control.c, and watched by hand against the real library):
//
//   - every client's stream begins with the block marker that GHC 9.0.2
//     writes before the header when logging starts again;
//   - one client at a time: while one is served, the others are left in
//     the listen backlog, connected and sent nothing;
//   - a client that hangs up loses its descriptor's data but not the
//     descriptor: the program never closes it, and a program that reaches
//     its limit of descriptors dies ("Too many open files");
//   - control commands are read from the client being served, in the
//     library's protocol (version 0), and nothing is answered;
//   - optionally the last flush is lost at exit, so that the stream ends
//     without its end marker (seen in 4 of 5 runs on Unix sockets).
package fakesocket

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Options say what the program writes and how.
type Options struct {
	// Log is a whole eventlog (header, events, end marker) that each
	// client gets, after the stray block marker, as if logging restarted
	// for it.
	Log []byte
	// Garbage, if set, is written to each client instead: a program whose
	// socket is not an eventlog's.
	Garbage []byte
	// Chunk is how many bytes are written at once (0: 64 KiB) and Pause
	// the wait before each next chunk: GHC 9.0 writes its events in
	// blocks, as each capability's buffer fills.
	Chunk int
	Pause time.Duration
	// DropLastFlush loses the last chunk and the end marker at exit.
	DropLastFlush bool
	// MaxFDs is how many client descriptors the program may hold (served
	// and leaked) before accepting one more kills it; 0: no limit.
	MaxFDs int
}

// Command is a control command the program read: a namespace and an id.
type Command struct {
	Namespace string
	ID        byte
}

// Program is the imitated program, serving until Exit.
type Program struct {
	o   Options
	l   net.Listener
	url string

	mu       sync.Mutex
	accepted int
	leaked   []net.Conn
	commands []Command
	died     error
	exiting  chan struct{}
	done     chan struct{}
}

// strayMarker is the block marker GHC 9.0.2 writes before the header of a
// restarted eventlog: capability 0xFFFF, its size covering the header.
func strayMarker() []byte {
	b := binary.BigEndian.AppendUint16(nil, 18)
	b = binary.BigEndian.AppendUint64(b, 1_000_000)
	b = binary.BigEndian.AppendUint32(b, 1_234)
	b = binary.BigEndian.AppendUint64(b, 0)
	return binary.BigEndian.AppendUint16(b, 0xFFFF)
}

// ListenUnix starts a program serving on a Unix socket in dir.
func ListenUnix(dir string, o Options) (*Program, error) {
	path := filepath.Join(dir, "ghc_eventlog.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	return start(l, "unix://"+path, o), nil
}

// ListenTCP starts a program serving on a loopback TCP port.
func ListenTCP(o Options) (*Program, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return start(l, "tcp://"+l.Addr().String(), o), nil
}

func start(l net.Listener, url string, o Options) *Program {
	if o.Chunk <= 0 {
		o.Chunk = 64 << 10
	}
	p := &Program{o: o, l: l, url: url, exiting: make(chan struct{}), done: make(chan struct{})}
	go p.serve()
	return p
}

// URL is the address a viewer attaches to.
func (p *Program) URL() string { return p.url }

// Accepted is how many clients the program has served.
func (p *Program) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// Leaked is how many descriptors of clients that left the program holds.
func (p *Program) Leaked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.leaked)
}

// Commands are the control commands read so far.
func (p *Program) Commands() []Command {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Command(nil), p.commands...)
}

// Died says why the program died, nil while it lives or after it exited.
func (p *Program) Died() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.died
}

// Exit ends the program as the RTS does at exit: the client being served
// gets the rest of its stream (less the last flush with DropLastFlush),
// and everything is closed. It returns when the program is gone.
func (p *Program) Exit() {
	select {
	case <-p.exiting:
	default:
		close(p.exiting)
	}
	p.l.Close()
	<-p.done
}

func (p *Program) serve() {
	defer func() {
		p.mu.Lock()
		for _, c := range p.leaked {
			c.Close() // the process is gone
		}
		p.mu.Unlock()
		close(p.done)
	}()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.accepted++
		if p.o.MaxFDs > 0 && len(p.leaked)+1 > p.o.MaxFDs {
			p.died = fmt.Errorf("accept: too many open files (%d client descriptors held)", len(p.leaked))
			p.mu.Unlock()
			c.Close()
			p.l.Close()
			return
		}
		p.mu.Unlock()
		if !p.client(c) {
			return
		}
	}
}

// client serves one client until it hangs up (true: accept the next one)
// or the program exits (false).
func (p *Program) client(c net.Conn) bool {
	hup := make(chan struct{})
	go p.read(c, hup)
	left := func() bool {
		p.mu.Lock()
		p.leaked = append(p.leaked, c) // never closed: the library's way
		p.mu.Unlock()
		return true
	}
	if p.o.Garbage != nil {
		c.Write(p.o.Garbage)
		select {
		case <-hup:
			return left()
		case <-p.exiting:
			c.Close()
			return false
		}
	}
	stream := append(strayMarker(), p.o.Log...)
	body, end := stream, []byte(nil)
	if len(stream) >= 2 {
		body, end = stream[:len(stream)-2], stream[len(stream)-2:]
	}
	for off := 0; off < len(body); {
		n := min(p.o.Chunk, len(body)-off)
		last := off+n == len(body)
		if last {
			// The last flush comes at exit.
			select {
			case <-hup:
				return left()
			case <-p.exiting:
			}
			if p.o.DropLastFlush {
				c.Close()
				return false
			}
		}
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write(body[off : off+n]); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				continue
			}
			return left()
		}
		off += n
		if last {
			break
		}
		select {
		case <-hup:
			return left()
		case <-p.exiting:
		case <-time.After(p.o.Pause):
		}
	}
	if len(body) == 0 {
		select {
		case <-hup:
			return left()
		case <-p.exiting:
		}
	}
	c.Write(end)
	c.Close()
	return false
}

// read parses what the client sends as the library's control thread does,
// and closes hup when the client hangs up.
func (p *Program) read(c net.Conn, hup chan struct{}) {
	defer close(hup)
	magic := []byte{0xF0, 0x9E, 0x97, 0x8C}
	var state, nsLen int
	var ns []byte
	buf := make([]byte, 256)
	for {
		n, err := c.Read(buf)
		for _, b := range buf[:n] {
			switch {
			case state < 4 && b == magic[state], state == 4 && b == 0:
				state++
			case state == 5 && b != 0:
				nsLen, ns, state = int(b), nil, 6
			case state == 6:
				ns = append(ns, b)
				if len(ns) == nsLen {
					state = 7
				}
			case state == 7:
				p.mu.Lock()
				p.commands = append(p.commands, Command{string(ns), b})
				p.mu.Unlock()
				state = 0
			default:
				state = 0
				if b == magic[0] {
					state = 1
				}
			}
		}
		if err != nil {
			return
		}
	}
}
