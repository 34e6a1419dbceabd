package http1

// OnBody registers the reader of the request's body: data gets the body's bytes as they
// arrive (loop-owned: valid only during the call), end gets nil once the body is complete
// (Trailers then holds its trailers) or the error that cut it short. Call it from the
// handler, before it returns: a body nobody reads is dropped. For a request with
// "Expect: 100-continue", OnBody sends the 100 (Continue) response that asks the client
// for the body. Outside a Server it does nothing.
func (r *Request) OnBody(data func(chunk []byte), end func(err error)) {
	c := r.c
	if c == nil {
		return
	}
	if c.bodyDone || c.phase >= phaseClosing {
		if end != nil {
			if c.phase >= phaseClosing {
				end(errConnClosed)
			} else {
				end(nil)
			}
		}
		return
	}
	c.onData, c.onEnd = data, end
	if r.Expect100 && !c.sent100 && !c.holdContinue && !c.w.headSent {
		c.out = append(c.out, "HTTP/1.1 100 Continue\r\n\r\n"...)
		c.sent100 = true
		c.queueFlush()
	}
}

// HoldContinue keeps OnBody from sending the 100 (Continue) response that a request with
// "Expect: 100-continue" asks for: the handler sends it with Response.WriteContinue, or
// answers without it (nodehttp's "checkContinue" listeners decide so). Call it before
// OnBody. Outside a Server it does nothing.
func (r *Request) HoldContinue() {
	if r.c != nil {
		r.c.holdContinue = true
	}
}

// Trailers returns the trailer fields of a chunked body, valid during OnBody's end
// callback.
func (r *Request) Trailers() []Header {
	if r.c == nil {
		return nil
	}
	return r.c.p.trailers
}

// PauseBody stops reading the connection (the client's sends then block once the
// kernel's buffers fill), for a body reader that cannot keep up; ResumeBody resumes. The
// pause ends with the body: once its end is parsed (bytes read before the pause are still
// parsed), the connection reads again, for the next request. After the body's end it does
// nothing (a pause then would outlive the body: Node's req.pause() after 'end' leaves the
// next request to be read).
func (r *Request) PauseBody() {
	if r.c != nil && !r.c.bodyDone {
		r.c.pause(pauseUser)
	}
}

// ResumeBody undoes PauseBody.
func (r *Request) ResumeBody() {
	if r.c != nil {
		r.c.resume(pauseUser)
	}
}

// Body returns the body gathered by BufferBody (valid until the response ends).
func (r *Request) Body() []byte { return r.body }

// Detach copies the head's bytes (method, target, fields) to the end of buf and points
// the Request's slices there, so that they stay valid as long as buf is not changed;
// it returns the extended buf.
func (r *Request) Detach(buf []byte) []byte {
	n := len(r.Method) + len(r.Target)
	for _, h := range r.Headers {
		n += len(h.Name) + len(h.Value)
	}
	if cap(buf)-len(buf) < n {
		nb := make([]byte, len(buf), len(buf)+n)
		copy(nb, buf)
		buf = nb
	}
	take := func(b []byte) []byte {
		start := len(buf)
		buf = append(buf, b...)
		return buf[start:len(buf):len(buf)]
	}
	hostName := -1
	for i := range r.Headers {
		if r.Host != nil && equalFold(r.Headers[i].Name, "host") {
			hostName = i
		}
	}
	r.Method = take(r.Method)
	r.Target = take(r.Target)
	for i := range r.Headers {
		h := &r.Headers[i]
		h.Name = take(h.Name)
		h.Value = take(h.Value)
	}
	if hostName >= 0 {
		r.Host = r.Headers[hostName].Value
	}
	return buf
}

// BufferBody returns a handler that reads a request's whole body (up to the server's
// MaxBodySize; the bytes count against its MaxBufferedBytes, and a connection that would
// go over is answered 503) and then calls h with Request.Body holding it. The request's
// head is copied (Detach) so that h sees it whole. A request without a body goes to h at
// once. Use it for handlers that want the body in one piece; stream with OnBody otherwise.
func BufferBody(h Handler) Handler {
	return HandlerFunc(func(w *Response, r *Request) {
		c := r.c
		if c == nil || !r.HasBody() {
			h.ServeHTTP1(w, r)
			return
		}
		c.bufH = h
		c.detach = r.Detach(c.detach[:0])
		c.body = c.body[:0]
		c.account()
		if c.gather == nil {
			c.gather, c.gathered = c.gatherBody, c.gatheredBody
		}
		r.OnBody(c.gather, c.gathered)
	})
}

func (c *conn) gatherBody(b []byte) {
	if need := len(c.body) + len(b); need > cap(c.body) {
		newCap := max(need, 2*cap(c.body), 512)
		if lim := c.p.maxBody(); int64(newCap) > lim {
			newCap = int(max(lim, int64(need)))
		}
		if !c.s.hold(int64(newCap - cap(c.body))) {
			c.refuse(errOverloaded, 503)
			return
		}
		c.held += int64(newCap - cap(c.body))
		nb := make([]byte, len(c.body), newCap)
		copy(nb, c.body)
		c.body = nb
	}
	c.body = append(c.body, b...)
}

func (c *conn) gatheredBody(err error) {
	if err != nil {
		return
	}
	r := &c.p.req
	r.body = c.body
	h := c.bufH
	c.bufH = nil
	h.ServeHTTP1(&c.w, r)
	r.body = nil
}
