package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/nodenet"
)

// The interpreter's fs calls and TCP sessions: what the script's fs and net calls do,
// with nodefs and nodenet.

// code is what the script logs for err: its err.code.
func code(err error) string {
	var fe *nodefs.Error
	var ne *nodenet.Error
	switch {
	case errors.As(err, &fe):
		return fe.Code
	case errors.As(err, &ne):
		return ne.Code
	}
	return "uvfuzz-error:" + err.Error()
}

func (it *interp) fsCall(s *Stmt) {
	a := s.spawnActor()
	// done runs the callback with what the script logs: err.code, 'ok' or 'ok:' + result.
	done := func(err error, result string, has bool) {
		res := "ok"
		switch {
		case err != nil:
			res = code(err)
		case has:
			res = "ok:" + result
		}
		it.callback(a, label("F", s.ID)+":"+res, s.Body)()
	}
	cb := func(err error) { done(err, "", false) }
	f := filepath.Join(it.dir, fmt.Sprintf("f%d", s.Ref))
	var err error
	switch s.FS {
	case FSStat:
		err = it.fs.Stat(it.file, func(err error, _ *nodefs.Stats) { cb(err) })
	case FSStatMissing:
		err = it.fs.Stat(it.file+".missing", func(err error, _ *nodefs.Stats) { cb(err) })
	case FSReadFile:
		err = it.fs.ReadFile(it.file, func(err error, _ []byte) { cb(err) })
	case FSWrite:
		err = it.fs.WriteFileString(f, label("w", s.ID), "utf8", nil, cb)
	case FSAppend:
		err = it.fs.AppendFileString(f, label("a", s.ID), "utf8", nil, cb)
	case FSReadTmp:
		err = it.fs.ReadFileString(f, "utf8", func(err error, d string) { done(err, d, true) })
	case FSStatTmp:
		err = it.fs.Stat(f, func(err error, st *nodefs.Stats) {
			if err != nil {
				done(err, "", false)
				return
			}
			done(nil, fmt.Sprint(st.Size), true)
		})
	case FSUnlink:
		err = it.fs.Unlink(f, cb)
	case FSRename:
		err = it.fs.Rename(f, filepath.Join(it.dir, fmt.Sprintf("f%d", s.N)), cb)
	case FSMkdir:
		err = it.fs.Mkdir(filepath.Join(it.dir, fmt.Sprintf("d%d", s.Ref)), nil, func(err error, _ string) { cb(err) })
	case FSReaddir:
		err = it.fs.Readdir(it.dir, func(err error, names []string) {
			slices.Sort(names)
			done(err, strings.Join(names, ","), true)
		})
	}
	if err != nil {
		it.log("", "uvfuzz: fs: "+err.Error())
	}
}

// tcpState is the client whose Pre or Connect block runs (OpWrite writes on it).
type tcpState struct {
	sock *nodenet.Socket
	sent int
}

func (it *interp) write(s *Stmt) {
	c := it.net
	if c == nil {
		panic("uvfuzz: a write outside a Connect block")
	}
	c.sent += s.N
	var cb func(error)
	if s.Body != nil {
		cb = func(err error) {
			res := "ok"
			if err != nil {
				res = code(err)
			}
			it.callback(s.A, label("w", s.ID)+":"+res, s.Body)()
		}
	}
	c.sock.Write(bytes.Repeat([]byte{'x'}, s.N), cb)
}

// tcp runs a TCP session as the script's block of it does (see jsw.tcp).
func (it *interp) tcp(s *Stmt) {
	l, t := it.l, s.TCP
	_, actors := t.blocks(s.ID)
	sa := actors[0]
	run := func(a, tag string, b *Block) {
		it.log(a, tag)
		if b != nil {
			it.stmts(b.Stmts)
		}
	}
	var srv *nodenet.Server
	srvClose := func() {
		srv.Close(func(error) { run(sa, "close", t.Close) })
	}
	var client func(k int)
	accept := func(k int, sock *nodenet.Socket) {
		c, aa := t.Conns[k], actors[1+9*k+clientBlocks]
		got, first := 0, true
		sock.OnData(func(d []byte) {
			sock.Write(d, nil)
			got += len(d)
			if !first {
				return
			}
			first = false
			run(aa, "data", c.AData)
		})
		sock.OnEnd(func() { run(aa, fmt.Sprintf("end:%d", got), c.AEnd) })
		sock.OnClose(func(bool) { run(aa, "close", c.AClose) })
		run(aa, "connection", c.Accept)
		if k == len(t.Conns)-1 && t.CloseEarly {
			srvClose()
		}
	}
	client = func(k int) {
		c, ca := t.Conns[k], actors[1+9*k]
		st := &tcpState{}
		got, first, ended := 0, true, false
		writing := func(b *Block) {
			if b == nil {
				return
			}
			prev := it.net
			it.net = st
			for _, ws := range b.Stmts {
				it.stmt(ws)
			}
			it.net = prev
		}
		st.sock = nodenet.Connect(l, srv.Address().Port, "127.0.0.1", func() {
			it.log(ca, "connect")
			writing(c.Connect)
			if st.sent == 0 {
				ended = true
				st.sock.End(nil)
			}
		})
		st.sock.OnData(func(d []byte) {
			got += len(d)
			if first {
				first = false
				run(ca, "data", c.CData)
			}
			if got == st.sent && !ended {
				ended = true
				st.sock.End(nil)
			}
		})
		st.sock.OnEnd(func() { run(ca, fmt.Sprintf("end:%d", got), c.CEnd) })
		st.sock.OnClose(func(bool) {
			run(ca, "close", c.CClose)
			switch {
			case k < len(t.Conns)-1:
				client(k + 1)
			case !t.CloseEarly:
				srvClose()
			}
		})
		writing(c.Pre)
	}
	n := 0
	srv = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		n++
		accept(n-1, sock)
	})
	srv.Listen(0, "127.0.0.1", func() {
		run(sa, "listening", t.Listening)
		if len(t.Conns) > 0 {
			client(0)
		} else {
			srvClose()
		}
	})
}
