// Package socktest serves eventlog sockets for tests, misbehaving as a
// program's server can: accepting and sending garbage, closing at once, or
// saying nothing, and holding the connections open as GHC's eventlog-socket
// library does (it never closes a client's descriptor), so that a test can
// count the connections a viewer makes and see that the viewer closed each.
package socktest

import (
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Conn says how the server treats one accepted connection.
type Conn struct {
	// Send is written to the client once it is accepted.
	Send []byte
	// Close closes the connection once Send is written; otherwise the
	// server holds it open until the client closes it.
	Close bool
}

// Server is a listening socket that serves each accepted connection as
// its Conn says.
type Server struct {
	// URL is the live source URL of the socket (unix:///… or tcp://…).
	URL string

	l     net.Listener
	conns []Conn
	wg    sync.WaitGroup

	mu       sync.Mutex
	accepted []time.Time
	held     map[net.Conn]bool // held open; true once the client closed it
}

// Serve listens on network ("unix": a socket in a temporary directory of
// t; "tcp": a loopback port) and serves the i-th accepted connection as
// conns[i], every later one as the last of conns. The server stops at the
// end of the test.
func Serve(t testing.TB, network string, conns ...Conn) *Server {
	t.Helper()
	if len(conns) == 0 {
		t.Fatal("socktest.Serve: no Conn")
	}
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "prog.sock")
	}
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{l: l, conns: conns, held: map[net.Conn]bool{}}
	if network == "unix" {
		s.URL = "unix://" + addr
	} else {
		s.URL = "tcp://" + l.Addr().String()
	}
	s.wg.Add(1)
	go s.accept()
	t.Cleanup(s.stop)
	return s
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.l.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		how := s.conns[min(len(s.accepted), len(s.conns)-1)]
		s.accepted = append(s.accepted, time.Now())
		if !how.Close {
			s.held[c] = false
		}
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(c, how)
	}
}

// serve writes what the connection is to get, then closes it or waits for
// the client to close it.
func (s *Server) serve(c net.Conn, how Conn) {
	defer s.wg.Done()
	if len(how.Send) > 0 {
		c.Write(how.Send)
	}
	if how.Close {
		c.Close()
		return
	}
	buf := make([]byte, 512)
	for {
		if _, err := c.Read(buf); err != nil {
			break
		}
	}
	s.mu.Lock()
	if _, ok := s.held[c]; ok {
		s.held[c] = true
	}
	s.mu.Unlock()
}

// stop closes the listener and the connections still held, and waits for
// the server's goroutines.
func (s *Server) stop() {
	s.l.Close()
	s.mu.Lock()
	for c := range s.held {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// Accepts returns how many connections the server has accepted.
func (s *Server) Accepts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.accepted)
}

// AcceptedWithin returns how many connections the server accepted within d
// of the first.
func (s *Server) AcceptedWithin(d time.Duration) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, at := range s.accepted {
		if at.Sub(s.accepted[0]) <= d {
			n++
		}
	}
	return n
}

// Open returns how many connections the server holds open that the client
// has not closed: the descriptors a program would still hold for it.
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, closed := range s.held {
		if !closed {
			n++
		}
	}
	return n
}
