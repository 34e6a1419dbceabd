package uvloop_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// The goroutine checks are built only with the uvgo_checkgoroutine tag: this runs their
// tests (checkgoroutine_test.go) in a build with it.
func TestCheckGoroutineBuild(t *testing.T) {
	if uvloop.CheckingGoroutines {
		t.Skip("this build has the checks: their tests run directly")
	}
	if testing.Short() {
		t.Skip("builds the package again")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(gobin, "test", "-tags", "uvgo_checkgoroutine", "-count=1", "-run", "TestCheckGoroutine", ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -tags uvgo_checkgoroutine: %v\n%s", err, out)
	}
}
