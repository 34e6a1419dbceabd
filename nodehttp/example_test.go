package nodehttp_test

import (
	"fmt"

	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A server and a client on one loop, as a Node script would have them: the request
// listener answers, the client reads the body, and the server closes once the client's
// socket is back with its agent.
func Example() {
	l, _ := uvloop.New()
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		res.SetHeader("Content-Type", "text/plain")
		res.EndString("hello " + req.URL)
	})
	server.Listen(0, "127.0.0.1", func() {
		nodehttp.Get(l, nodehttp.RequestOptions{Port: server.Address().Port, Path: "/world"}, func(res *nodehttp.IncomingMessage) {
			fmt.Println(res.StatusCode, res.Headers()["content-type"])
			res.OnData(func(b []byte) { fmt.Println(string(b)) })
			res.OnEnd(func() { server.Close(func(error) { fmt.Println("closed") }) })
		})
	})
	l.Run(uvloop.RunDefault)
	l.Walk(func(h uvloop.Handle) { h.Close(nil) }) // the agent's idle socket
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// 200 text/plain
	// hello /world
	// closed
}

// IncomingMessage.Text reads a request's body through a promise, as `await text(req)`
// would in Node.
func ExampleIncomingMessage_Text() {
	l, _ := uvloop.New()
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		promise.Then(req.Text(), func(body string) (struct{}, error) {
			res.EndString("got " + body)
			return struct{}{}, nil
		}, nil)
	})
	server.Listen(0, "127.0.0.1", func() {
		req := nodehttp.Request(l, nodehttp.RequestOptions{Port: server.Address().Port, Method: "POST", NoAgent: true},
			func(res *nodehttp.IncomingMessage) {
				promise.Then(res.Text(), func(s string) (struct{}, error) {
					fmt.Println(s)
					server.Close(nil)
					return struct{}{}, nil
				}, nil)
			})
		req.WriteString("a body ")
		req.EndString("in two writes")
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// got a body in two writes
}

// WriteHead fixes the head, so the body that follows is chunked, and AddTrailers' fields
// come after it, as in Node.
func ExampleServerResponse_AddTrailers() {
	l, _ := uvloop.New()
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		res.WriteHead(200, []string{"Trailer", "X-Checksum"})
		res.WriteString("some ")
		res.AddTrailers(map[string]string{"X-Checksum": "42"})
		res.EndString("body")
	})
	server.Listen(0, "127.0.0.1", func() {
		nodehttp.Get(l, nodehttp.RequestOptions{Port: server.Address().Port, NoAgent: true}, func(res *nodehttp.IncomingMessage) {
			fmt.Println(res.Headers()["transfer-encoding"])
			var body []byte
			res.OnData(func(b []byte) { body = append(body, b...) })
			res.OnEnd(func() {
				fmt.Println(string(body), res.Trailers()["x-checksum"])
				server.Close(nil)
			})
		})
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// chunked
	// some body 42
}

// GetURL takes a URL, as http.get('http://...') does; user and password in it become a
// Basic Authorization field.
func ExampleGetURL() {
	l, _ := uvloop.New()
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		res.EndString(req.URL + " " + req.Header("authorization"))
	})
	server.Listen(0, "127.0.0.1", func() {
		url := fmt.Sprintf("http://me:secret@127.0.0.1:%d/path?q=1", server.Address().Port)
		nodehttp.GetURL(l, url, nodehttp.RequestOptions{NoAgent: true}, func(res *nodehttp.IncomingMessage) {
			promise.Then(res.Text(), func(s string) (struct{}, error) {
				fmt.Println(s)
				server.Close(nil)
				return struct{}{}, nil
			}, nil)
		})
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// /path?q=1 Basic bWU6c2VjcmV0
}
