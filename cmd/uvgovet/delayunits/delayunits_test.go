package delayunits_test

import (
	"testing"

	"github.com/uvgo/uvgo/cmd/uvgovet/delayunits"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), delayunits.Analyzer, "port")
}
