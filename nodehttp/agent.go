package nodehttp

import (
	"runtime"
	"strconv"
	"sync"
	"time"
	"weak"

	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// AgentOptions are the options of NewAgent (Node's new http.Agent(options)).
type AgentOptions struct {
	// KeepAlive keeps sockets for later requests once their response ended.
	KeepAlive bool
	// MaxSockets caps the sockets per host:port (0: no cap, Node's Infinity).
	MaxSockets int
	// MaxFreeSockets caps the idle sockets kept per host:port (0: 256).
	MaxFreeSockets int
	// Timeout closes a kept socket after this long idle (0: never; a server's
	// "Keep-Alive: timeout=N" hint shortens it to N-1 s).
	Timeout time.Duration
	// FIFO reuses the oldest idle socket first (Node's scheduling 'fifo'); the default is
	// the most recent ('lifo').
	FIFO bool
}

// Agent is Node's http.Agent: it hands sockets to client requests, at most MaxSockets per
// host:port (the others wait in a queue), and with KeepAlive keeps the sockets of ended
// responses for the next requests (unref'd: they do not keep the loop alive). Loop
// goroutine only.
type Agent struct {
	nodenet.EventEmitter
	AgentOptions

	loop     *uvloop.Loop
	sockets  map[string][]*nodenet.Socket // in use
	free     map[string][]*nodenet.Socket // kept alive, idle
	requests map[string][]*ClientRequest  // waiting for a socket
	total    int
	meta     map[*nodenet.Socket]*agentSocket
	tk       *ticker // the responses' ticks; made on first use
}

// ticker returns the ticker of the responses to requests on loop l.
func (a *Agent) ticker(l *uvloop.Loop) *ticker {
	if l != a.loop {
		return newTicker(l)
	}
	if a.tk == nil {
		a.tk = newTicker(l)
	}
	return a.tk
}

// agentSocket is what the agent keeps about one of its sockets.
type agentSocket struct {
	name    string
	host    string
	port    int
	timer   *uvloop.Timeout
	onError *nodenet.Listener // while idle
	req     *ClientRequest    // the request it serves (Node's socket._httpMessage)
}

// NewAgent returns an agent (new http.Agent(options)).
func NewAgent(l *uvloop.Loop, o AgentOptions) *Agent {
	if o.MaxFreeSockets == 0 {
		o.MaxFreeSockets = 256
	}
	return &Agent{
		AgentOptions: o,
		loop:         l,
		sockets:      map[string][]*nodenet.Socket{},
		free:         map[string][]*nodenet.Socket{},
		requests:     map[string][]*ClientRequest{},
		meta:         map[*nodenet.Socket]*agentSocket{},
	}
}

// globalAgents holds each loop's GlobalAgent weakly (an agent with sockets is held by
// their callbacks, so it lives as long as they do; one with none may go and come back).
var (
	globalMu     sync.Mutex
	globalAgents = map[weak.Pointer[uvloop.Loop]]weak.Pointer[Agent]{}
)

// GlobalAgent returns the loop's http.globalAgent: Node 20's, with KeepAlive and a 5 s
// Timeout.
func GlobalAgent(l *uvloop.Loop) *Agent {
	key := weak.Make(l)
	globalMu.Lock()
	defer globalMu.Unlock()
	wa, known := globalAgents[key]
	if a := wa.Value(); a != nil {
		return a
	}
	a := NewAgent(l, AgentOptions{KeepAlive: true, Timeout: 5 * time.Second})
	globalAgents[key] = weak.Make(a)
	if !known {
		runtime.AddCleanup(l, func(k weak.Pointer[uvloop.Loop]) {
			globalMu.Lock()
			delete(globalAgents, k)
			globalMu.Unlock()
		}, key)
	}
	return a
}

func agentName(host string, port int) string { return host + ":" + strconv.Itoa(port) + ":" }

// Destroy destroys every socket of the agent (agent.destroy()).
func (a *Agent) Destroy() {
	for _, set := range []map[string][]*nodenet.Socket{a.free, a.sockets} {
		for _, ss := range set {
			for _, s := range ss {
				s.Destroy(nil)
			}
		}
	}
}

// FreeSockets returns the number of idle sockets kept for host:port.
func (a *Agent) FreeSockets(host string, port int) int { return len(a.free[agentName(host, port)]) }

// Sockets returns the number of sockets in use for host:port.
func (a *Agent) Sockets(host string, port int) int { return len(a.sockets[agentName(host, port)]) }

// Requests returns the number of requests waiting for a socket to host:port (Node's
// agent.requests).
func (a *Agent) Requests(host string, port int) int { return len(a.requests[agentName(host, port)]) }

// addRequest is agent.addRequest: a kept socket, a new one, or the queue.
func (a *Agent) addRequest(req *ClientRequest) {
	name := agentName(req.host, req.port)
	var sock *nodenet.Socket
	if free := a.free[name]; len(free) > 0 {
		for len(free) > 0 && free[0].Destroyed() {
			free = free[1:]
		}
		if len(free) > 0 {
			if a.FIFO {
				sock, free = free[0], free[1:]
			} else {
				sock, free = free[len(free)-1], free[:len(free)-1]
			}
		}
		if len(free) == 0 {
			delete(a.free, name)
		} else {
			a.free[name] = free
		}
	}
	switch {
	case sock != nil:
		m := a.meta[sock]
		if m.onError != nil {
			sock.Off("error", m.onError)
			m.onError = nil
		}
		if m.timer != nil {
			a.loop.ClearTimeout(m.timer)
			m.timer = nil
		}
		req.reusedSocket = true
		sock.Ref()
		a.sockets[name] = append(a.sockets[name], sock)
		req.onSocket(sock, nil)
	case a.MaxSockets <= 0 || len(a.sockets[name])+len(a.free[name]) < a.MaxSockets:
		a.createSocket(req.host, req.port, func(s *nodenet.Socket) { req.onSocket(s, nil) })
	default:
		a.requests[name] = append(a.requests[name], req)
	}
}

func (a *Agent) createSocket(host string, port int, then func(*nodenet.Socket)) {
	name := agentName(host, port)
	s := nodenet.Connect(a.loop, port, host, nil)
	s.SetNoDelay(true)
	a.sockets[name] = append(a.sockets[name], s)
	a.total++
	m := &agentSocket{name: name, host: host, port: port}
	a.meta[s] = m
	s.On("free", func(...any) { a.onFree(s) })
	s.On("close", func(...any) { a.onClose(s) })
	then(s)
}

// onFree is the agent's 'free' listener: the socket goes to a waiting request, to the
// idle set, or away.
func (a *Agent) onFree(s *nodenet.Socket) {
	m := a.meta[s]
	if m == nil {
		return
	}
	if s.Destroyed() {
		s.Destroy(nil)
		return
	}
	if q := a.requests[m.name]; len(q) > 0 {
		req := q[0]
		if len(q) == 1 {
			delete(a.requests, m.name)
		} else {
			a.requests[m.name] = q[1:]
		}
		req.onSocket(s, nil)
		return
	}
	req := m.req
	if req == nil || !req.shouldKeepAlive || !a.KeepAlive {
		s.Destroy(nil)
		return
	}
	free := a.free[m.name]
	count := len(free) + len(a.sockets[m.name])
	if a.MaxSockets > 0 && count > a.MaxSockets || len(free) >= a.MaxFreeSockets || !a.keepSocketAlive(s, req) {
		s.Destroy(nil)
		return
	}
	m.req = nil
	a.removeFrom(a.sockets, m.name, s)
	m.onError = s.Once("error", func(...any) { s.Destroy(nil) })
	a.free[m.name] = append(free, s)
}

// keepSocketAlive unrefs an idle socket and arms its timeout (the agent's, shortened by
// the server's Keep-Alive hint).
func (a *Agent) keepSocketAlive(s *nodenet.Socket, req *ClientRequest) bool {
	s.Unref()
	timeout := a.Timeout
	if res := req.res; res != nil {
		if hint, ok := keepAliveHint(res.Header("keep-alive")); ok {
			d := time.Duration(hint)*time.Second - time.Second
			if d <= 0 {
				return false
			}
			if d < timeout {
				timeout = d
			}
		}
	}
	if timeout > 0 {
		m := a.meta[s]
		m.timer = a.loop.SetTimeout(func() { m.timer = nil; s.Destroy(nil) }, timeout)
		m.timer.Unref()
	}
	return true
}

// keepAliveHint reads "timeout=N" at the start of a Keep-Alive header.
func keepAliveHint(v string) (int, bool) {
	const p = "timeout="
	if len(v) <= len(p) || v[:len(p)] != p {
		return 0, false
	}
	n := 0
	i := len(p)
	for ; i < len(v) && '0' <= v[i] && v[i] <= '9' && n < 1<<20; i++ {
		n = n*10 + int(v[i]-'0')
	}
	return n, i > len(p)
}

func (a *Agent) removeFrom(set map[string][]*nodenet.Socket, name string, s *nodenet.Socket) {
	ss := set[name]
	for i, x := range ss {
		if x == s {
			ss = append(ss[:i:i], ss[i+1:]...)
			break
		}
	}
	if len(ss) == 0 {
		delete(set, name)
	} else {
		set[name] = ss
	}
}

// onClose forgets a closed socket, and opens one for a waiting request.
func (a *Agent) onClose(s *nodenet.Socket) {
	m := a.meta[s]
	if m == nil {
		return
	}
	delete(a.meta, s)
	if m.timer != nil {
		a.loop.ClearTimeout(m.timer)
	}
	a.total--
	a.removeFrom(a.sockets, m.name, s)
	a.removeFrom(a.free, m.name, s)
	if q := a.requests[m.name]; len(q) > 0 {
		a.createSocket(m.host, m.port, func(ns *nodenet.Socket) { ns.Emit("free") })
	}
}
