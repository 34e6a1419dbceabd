package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestREADME checks the README's hello snippet against this program: the snippet is a
// part of main.go (tabs removed), and the lines the README says it prints are what main
// prints.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "```go\nloop.SetTimeout")
	if i < 0 {
		t.Fatal("README.md has no hello snippet starting with loop.SetTimeout")
	}
	snippet, rest, _ := strings.Cut(text[i+len("```go\n"):], "```")
	var indented strings.Builder
	for _, line := range strings.SplitAfter(snippet, "\n") {
		if line != "" {
			indented.WriteString("\t" + line)
		}
	}
	if !strings.Contains(string(src), indented.String()) {
		t.Errorf("README's hello snippet is not in examples/hello/main.go:\n%s", snippet)
	}
	j := strings.Index(rest, "```\n")
	if j < 0 {
		t.Fatal("README.md has no printed-lines block after the hello snippet")
	}
	printed, _, _ := strings.Cut(rest[j+len("```\n"):], "```")

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	main()
	os.Stdout = stdout
	w.Close()
	var got bytes.Buffer
	io.Copy(&got, r)
	r.Close()
	if got.String() != printed {
		t.Errorf("examples/hello prints\n%s\nbut the README says\n%s", got.String(), printed)
	}
}
