package nodeprocess_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if os.Getenv("NODEPROCESS_HELPER") != "" {
		helperMain() // a child started by a test: read stdin, report, exit
		return
	}
	goleak.VerifyTestMain(m)
}
