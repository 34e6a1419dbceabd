package promise_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

const combinatorsJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  const d = () => { let res, rej; const p = new Promise((a, b) => { res = a; rej = b; }); return { p, res, rej }; };
  const A = d(), B = d(), C = d(), D = d(), E = d(), F = d();
  Promise.any([A.p, B.p, C.p]).catch(e => log('any', e.name, e.message, e.errors.map(x => x.message).join(',')));
  Promise.any([]).catch(e => log('any empty', e.name, e.message, e.errors.length));
  Promise.all([D.p, E.p, D.p]).then(v => log('all dup', v.join(',')), e => log('all rejected', e.message));
  Promise.race([E.p, F.p]).then(v => log('race', v));
  Promise.allSettled([F.p, Promise.reject(new Error('s')), 3]).then(v => log('allSettled', JSON.stringify(v.map(x => [x.status, x.value ?? x.reason.message]))));
  Promise.race([]).then(() => log('race empty settled'));
  Promise.all([]).then(v => log('all empty', v.length));
  Promise.allSettled([]).then(v => log('allSettled empty', v.length));
  Promise.all([E.p, Promise.reject(new Error('x1')), Promise.reject(new Error('x2'))]).catch(e => log('all first rejection', e.message));
  Promise.any([Promise.reject(new Error('y1')), F.p, Promise.resolve(4)]).then(v => log('any settled', v));
  Promise.resolve().then(() => log('m1')).then(() => { log('m2'); C.rej(new Error('c')); E.res(5); })
    .then(() => { log('m3'); A.rej(new Error('a')); D.res(4); F.res(6); }).then(() => { log('m4'); B.rej(new Error('b')); })
    .then(() => log('m5')).then(() => log('m6')).then(() => log('m7')).then(() => log('m8'));
  log('sync');
}, 0);
`

// aggregateLine prints an Any rejection as the twins print node's AggregateError: name,
// message and the messages of its errors, in input order.
func aggregateLine(err error) string {
	var ae *promise.AggregateError
	if !errors.As(err, &ae) {
		return "not an AggregateError: " + err.Error()
	}
	msgs := make([]string, len(ae.Errors))
	for i, e := range ae.Errors {
		msgs[i] = e.Error()
	}
	return ae.Name() + " " + ae.Error() + " " + strings.Join(msgs, ",")
}

// TestRev10pCombinators pins All, AllSettled, Race and Any with empty input, pending inputs
// settled out of order (Any's errors stay in input order), a repeated input, settled and
// rejected inputs among pending ones, against node's turns, in every mode.
func TestRev10pCombinators(t *testing.T) {
	want := looptest.NodeLines(t, combinatorsJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		type def struct {
			p *promise.Promise[int]
			r *promise.Resolvers[int]
		}
		d := func() def { p, r := promise.WithResolvers[int](l); return def{p, r} }
		A, B, C, D, E, F := d(), d(), d(), d(), d(), d()
		promise.Any(l, A.p, B.p, C.p).Catch(func(err error) (int, error) { log("any", aggregateLine(err)); return 0, nil })
		promise.Any[int](l).Catch(func(err error) (int, error) {
			var ae *promise.AggregateError
			errors.As(err, &ae)
			log("any empty", ae.Name(), err.Error(), len(ae.Errors))
			return 0, nil
		})
		promise.Then(promise.All(l, D.p, E.p, D.p),
			func(v []int) (any, error) {
				s := fmt.Sprint(v)
				log("all dup", strings.ReplaceAll(s[1:len(s)-1], " ", ","))
				return nil, nil
			},
			func(err error) (any, error) { log("all rejected", err.Error()); return nil, nil })
		logValue(promise.Race(l, E.p, F.p), log, "race")
		promise.Then(promise.AllSettled(l, F.p, promise.Reject[int](l, errors.New("s")), promise.Resolve(l, 3)),
			func(v []promise.Settlement[int]) (any, error) {
				out := make([][2]any, len(v))
				for i, s := range v {
					if s.State == promise.Fulfilled {
						out[i] = [2]any{"fulfilled", s.Value}
					} else {
						out[i] = [2]any{"rejected", s.Err.Error()}
					}
				}
				b, _ := json.Marshal(out)
				log("allSettled", string(b))
				return nil, nil
			}, nil)
		promise.Then(promise.Race[int](l), func(int) (any, error) { log("race empty settled"); return nil, nil }, nil)
		promise.Then(promise.All[int](l), func(v []int) (any, error) { log("all empty", len(v)); return nil, nil }, nil)
		promise.Then(promise.AllSettled[int](l), func(v []promise.Settlement[int]) (any, error) { log("allSettled empty", len(v)); return nil, nil }, nil)
		promise.All(l, E.p, promise.Reject[int](l, errors.New("x1")), promise.Reject[int](l, errors.New("x2"))).
			Catch(func(err error) ([]int, error) { log("all first rejection", err.Error()); return nil, nil })
		logValue(promise.Any(l, promise.Reject[int](l, errors.New("y1")), F.p, promise.Resolve(l, 4)), log, "any settled")
		rev10pRuler(l, log, 8, map[int]func(){
			2: func() { C.r.Reject(errors.New("c")); E.r.Resolve(5) },
			3: func() { A.r.Reject(errors.New("a")); D.r.Resolve(4); F.r.Resolve(6) },
			4: func() { B.r.Reject(errors.New("b")) },
		})
		log("sync")
	})
}
