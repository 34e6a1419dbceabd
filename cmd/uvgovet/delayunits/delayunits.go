// Package delayunits is a go/analysis analyzer that reports delays given to uvgo's timers
// as a bare number of nanoseconds. uvgo's timers take a time.Duration, as Go's do, and a
// time.Duration is an integer, so SetTimeout(fn, 500) compiles: it means 500 ns, which
// Node's rule (a delay below 1 ms is 1 ms) turns into 1 ms. A porter copying setTimeout(fn,
// 500) from Node means 500 ms.
//
// It reports, in calls to the timer functions of uvgo (uvloop's Loop.SetTimeout,
// SetInterval and Timer.Start; nodetimers' SetTimeout and SetInterval; nodeevents'
// AbortSignalTimeout):
//   - for the Node-style ones (all but Timer.Start), a constant delay above 0 and below
//     one millisecond (500, 20*time.Microsecond), which Node's rule rounds up to 1 ms:
//     never what was meant;
//   - for Timer.Start, a constant below one millisecond written as a bare number, with no
//     time unit in it (Start(500, 0)); the libuv-style Timer keeps nanoseconds, so
//     Start(time.Nanosecond, 0) is fine;
//   - a delay that converts a plain integer variable, time.Duration(ms), with no unit:
//     nanoseconds, where ported code almost always holds milliseconds.
//
// 0 (Node's setTimeout(fn, 0)) and delays with a unit (500*time.Millisecond,
// time.Duration(ms)*time.Millisecond) are fine.
package delayunits

import (
	"go/ast"
	"go/constant"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer is the analyzer.
var Analyzer = &analysis.Analyzer{
	Name:     "delayunits",
	Doc:      "report uvgo timer delays given as a bare number of nanoseconds (SetTimeout(fn, 500) is 500 ns, not 500 ms)",
	URL:      "https://pkg.go.dev/github.com/uvgo/uvgo/cmd/uvgovet/delayunits",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

const module = "github.com/uvgo/uvgo/"

// timerFuncs are the functions and methods whose time.Duration parameters are delays, by
// package path and name ("Type.Method" for methods).
// The value says whether the function follows Node's rule (a delay below 1 ms is 1 ms).
var timerFuncs = map[string]map[string]bool{
	module + "uvloop":     {"Loop.SetTimeout": true, "Loop.SetInterval": true, "Timer.Start": false},
	module + "nodetimers": {"SetTimeout": true, "SetInterval": true},
	module + "nodeevents": {"AbortSignalTimeout": true},
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		fn := callee(pass.TypesInfo, call)
		if fn == nil {
			return
		}
		nodeStyle, ok := timerFunc(fn)
		if !ok {
			return
		}
		sig := fn.Type().(*types.Signature)
		for i, arg := range call.Args {
			if i >= sig.Params().Len() || !isDuration(sig.Params().At(i).Type()) {
				continue
			}
			check(pass, fn.Name(), nodeStyle, arg)
		}
	})
	return nil, nil
}

func check(pass *analysis.Pass, name string, nodeStyle bool, arg ast.Expr) {
	if tv, ok := pass.TypesInfo.Types[arg]; ok && tv.Value != nil {
		v, exact := constant.Int64Val(constant.ToInt(tv.Value))
		switch {
		case !exact || v <= 0:
		case nodeStyle && v < int64(time.Millisecond):
			pass.Reportf(arg.Pos(), "%s delay %s is %v, which Node's rule rounds up to 1ms: "+
				"delays are time.Duration, write e.g. %d*time.Millisecond", name, render(arg), time.Duration(v), v)
		case v < int64(time.Millisecond) && !hasUnit(pass.TypesInfo, arg):
			pass.Reportf(arg.Pos(), "%s delay %s is a bare number, %v: delays are time.Duration, "+
				"write e.g. %d*time.Millisecond", name, render(arg), time.Duration(v), v)
		}
		return
	}
	conv, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 {
		return
	}
	if tv, ok := pass.TypesInfo.Types[conv.Fun]; !ok || !tv.IsType() || !isDuration(tv.Type) {
		return
	}
	inner := pass.TypesInfo.Types[conv.Args[0]]
	if inner.Value != nil || isDuration(inner.Type) {
		return
	}
	if b, ok := inner.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		pass.Reportf(arg.Pos(), "%s delay %s converts a plain integer to nanoseconds: "+
			"if it holds milliseconds, write %s*time.Millisecond", name, render(arg), render(arg))
	}
}

func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // a generic function with explicit type arguments
		switch g := f.X.(type) {
		case *ast.Ident:
			id = g
		case *ast.SelectorExpr:
			id = g.Sel
		}
	case *ast.IndexListExpr:
		switch g := f.X.(type) {
		case *ast.Ident:
			id = g
		case *ast.SelectorExpr:
			id = g.Sel
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// hasUnit reports whether e mentions a typed time.Duration operand (time.Millisecond, a
// constant or variable of type time.Duration), as opposed to a bare number.
func hasUnit(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		var id *ast.Ident
		switch n := n.(type) {
		case *ast.SelectorExpr:
			id = n.Sel
		case *ast.Ident:
			id = n
		}
		if id != nil {
			if obj := info.Uses[id]; obj != nil && isDuration(obj.Type()) {
				if _, isType := obj.(*types.TypeName); !isType {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// timerFunc reports whether fn is one of the timer functions, and whether it follows
// Node's rule.
func timerFunc(fn *types.Func) (nodeStyle, ok bool) {
	if fn.Pkg() == nil {
		return false, false
	}
	names := timerFuncs[fn.Pkg().Path()]
	if names == nil {
		return false, false
	}
	name := fn.Name()
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok {
			return false, false
		}
		name = named.Obj().Name() + "." + name
	}
	nodeStyle, ok = names[name]
	return nodeStyle, ok
}

func isDuration(t types.Type) bool {
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "time" && named.Obj().Name() == "Duration"
}

func render(e ast.Expr) string { return types.ExprString(e) }
