package nodehttp_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// urlJS: requests made from URLs (with a query, with user and password, with options over
// them, to localhost by name), then the URLs node refuses, whose errors it prints.
const urlJS = `
const http = require('http');
const port = +process.argv[2];
const reqs = [
  (cb) => http.get('http://127.0.0.1:' + port + '/a/b?c=d&e', cb),
  (cb) => http.get('http://us%40er:p%3Ass@127.0.0.1:' + port + '/auth', cb),
  (cb) => http.get('http://127.0.0.1:' + port + '/x', {path: '/over', auth: 'o:p', headers: {'X-A': '1'}}, cb),
  (cb) => http.get('http://localhost:' + port, cb),
  (cb) => http.request('http://127.0.0.1:' + port + '/post', {method: 'POST'}, cb).end('body'),
  (cb) => http.get('http://127.0.0.1:' + port + '/auth2', {headers: {Authorization: 'Bearer t'}, auth: 'u:p'}, cb),
];
(function next(i) {
  if (i === reqs.length) {
    for (const u of ['https://x/', 'not a url', 'ftp://x/', 'http://', 'http://127.0.0.1:65536/', 'http://127.0.0.1:99999999999999999999/']) {
      try { http.get(u).on('error', () => {}).destroy(); console.log('ok ' + u); } catch (e) { console.log(e.code + ' ' + e.message); }
    }
    return;
  }
  reqs[i]((res) => { res.resume(); res.on('end', () => setTimeout(() => next(i + 1), 10)); });
})(0);
`

// TestRequestURLRev10c: the bytes of requests made from URLs, and the errors of the URLs
// refused, as node's. Before, nodehttp had no URL form and no auth option.
func TestRequestURLRev10c(t *testing.T) {
	port, drain := recordRequests(t)
	out := nodeClient(t, urlJS, strconv.Itoa(port))
	want := append(drain(), out...)
	for _, m := range looptest.Modes {
		l, ok := m.New(t)
		if !ok {
			continue
		}
		base := "http://127.0.0.1:" + strconv.Itoa(port)
		var errs []string
		reqs := []func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error){
			func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error) {
				return nodehttp.GetURL(l, base+"/a/b?c=d&e", nodehttp.RequestOptions{}, cb)
			},
			func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error) {
				return nodehttp.GetURL(l, "http://us%40er:p%3Ass@127.0.0.1:"+strconv.Itoa(port)+"/auth", nodehttp.RequestOptions{}, cb)
			},
			func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error) {
				return nodehttp.GetURL(l, base+"/x", nodehttp.RequestOptions{Path: "/over", Auth: "o:p", Headers: []string{"X-A", "1"}}, cb)
			},
			func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error) {
				return nodehttp.GetURL(l, "http://localhost:"+strconv.Itoa(port), nodehttp.RequestOptions{}, cb)
			},
			func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error) {
				r, err := nodehttp.RequestURL(l, base+"/post", nodehttp.RequestOptions{Method: "POST"}, cb)
				if err == nil {
					r.EndString("body")
				}
				return r, err
			},
			func(cb func(*nodehttp.IncomingMessage)) (*nodehttp.ClientRequest, error) {
				return nodehttp.GetURL(l, base+"/auth2", nodehttp.RequestOptions{Headers: []string{"Authorization", "Bearer t"}, Auth: "u:p"}, cb)
			},
		}
		var next func(i int)
		next = func(i int) {
			if i == len(reqs) {
				for _, u := range []string{"https://x/", "not a url", "ftp://x/", "http://", "http://127.0.0.1:65536/", "http://127.0.0.1:99999999999999999999/"} {
					r, err := nodehttp.GetURL(l, u, nodehttp.RequestOptions{}, nil)
					var ne *nodenet.Error
					switch {
					case err == nil:
						r.Destroy(nil)
						errs = append(errs, "ok "+u)
					case errors.As(err, &ne):
						errs = append(errs, ne.Code+" "+ne.Message)
					default:
						errs = append(errs, err.Error())
					}
				}
				return
			}
			if _, err := reqs[i](func(res *nodehttp.IncomingMessage) {
				res.Resume()
				res.OnEnd(func() { l.SetTimeout(func() { next(i + 1) }, 10*time.Millisecond) })
			}); err != nil {
				t.Errorf("%s: request %d: %v", m.Name, i, err)
			}
		}
		next(0)
		dog := l.SetTimeout(func() { t.Errorf("%s: watchdog: the loop is still alive after 30 s", m.Name); l.Stop() }, 30*time.Second)
		dog.Unref()
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		l.Walk(func(h uvloop.Handle) { h.Close(nil) })
		l.Run(uvloop.RunDefault)
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		got := append(drain(), errs...)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got:\n%s\nwant (node):\n%s", m.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
