package panels

import (
	"fmt"
	"strings"
	"testing"
)

// TestEnvTextIsBounded: the Process tab's environment shows at most
// envShown variables, each at most envLineShown characters, and says how
// many it leaves out: one corrupt event read as PROGRAM_ENV gave 13,205
// variables, whose one label took the window 10–17 s to lay out.
func TestEnvTextIsBounded(t *testing.T) {
	env := make([]string, 13205)
	for i := range env {
		env[i] = fmt.Sprintf("V%d=%s", i, strings.Repeat("x", i%3000))
	}
	text := envText(env)
	lines := strings.Split(text, "\n")
	if len(lines) != envShown+1 {
		t.Fatalf("%d lines, want %d variables and a line saying what is left out", len(lines), envShown)
	}
	if last := lines[len(lines)-1]; last != "… and 12,705 more variables" {
		t.Errorf("last line %q", last)
	}
	for i, l := range lines[:envShown] {
		if !strings.HasPrefix(l, fmt.Sprintf("V%d=", i)) || len([]rune(l)) > envLineShown+1 {
			t.Fatalf("line %d: %d characters, starting %.20q", i, len([]rune(l)), l)
		}
	}
	if got := envText([]string{"A=1", "B=2"}); got != "A=1\nB=2" {
		t.Errorf("two variables: %q", got)
	}
}
