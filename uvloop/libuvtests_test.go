package uvloop_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLibuvTestsListed checks LIBUV_TESTS.md, the account of libuv's test list, against the
// code: every Go test it names exists in this package, every test in the libuv_*_test.go
// files and every TestLibuv* test is named in it, and every libuv test has one row with a
// status.
func TestLibuvTestsListed(t *testing.T) {
	md, err := os.ReadFile("LIBUV_TESTS.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]string{} // test name -> file
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") && fd.Name.Name != "TestMain" {
				tests[fd.Name.Name] = f
			}
		}
	}

	testName := regexp.MustCompile("`(Test[A-Za-z0-9_]+)`")
	libuvRow := regexp.MustCompile("^\\| `([a-z0-9_]+)` \\| (.*) \\| (.*) \\|$")
	named := map[string]bool{}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(md), "\n") {
		if m := libuvRow.FindStringSubmatch(line); m != nil {
			if rows[m[1]] {
				t.Errorf("libuv test %s has two rows", m[1])
			}
			rows[m[1]] = true
			if strings.TrimSpace(m[3]) == "" {
				t.Errorf("libuv test %s has no status", m[1])
			}
			ported := strings.HasPrefix(m[3], "ported")
			if ported != (m[2] != "—") {
				t.Errorf("libuv test %s: status %q does not fit Go tests %q", m[1], m[3], m[2])
			}
		}
		if strings.HasPrefix(line, "|") {
			for _, m := range testName.FindAllStringSubmatch(line, -1) {
				named[m[1]] = true
				if _, ok := tests[m[1]]; !ok {
					t.Errorf("LIBUV_TESTS.md names %s, which is not a test of package uvloop", m[1])
				}
			}
		}
	}
	if len(rows) < 500 {
		t.Errorf("LIBUV_TESTS.md has %d libuv rows; libuv's list has over 500 tests", len(rows))
	}
	for name, file := range tests {
		if (strings.HasPrefix(file, "libuv_") || strings.HasPrefix(name, "TestLibuv")) && !named[name] {
			t.Errorf("%s (%s) is not in LIBUV_TESTS.md: enter it as the port of a libuv test or in the table of other tests", name, file)
		}
	}
}
