package chooser

import (
	"reflect"
	"testing"
)

// TestRequestRoundTrip: a request read back from its arguments is the
// request, whatever its texts hold (spaces, dashes, the separators).
func TestRequestRoundTrip(t *testing.T) {
	for _, r := range []Request{
		{Title: "Open an eventlog"},
		{Save: true, Title: "Export the view as PNG", StartDir: "/tmp/my runs", StartFile: "view -1.png",
			Filters: []Filter{{Desc: "PNG images", Extensions: []string{"png"}}}},
		{Title: "-title", StartDir: "-dir", Filters: []Filter{
			{Desc: "GHC eventlogs and heap profiles", Extensions: []string{"eventlog", "hp"}},
			{Desc: "All files", Extensions: []string{"*"}},
		}},
	} {
		got, err := Parse(r.Args())
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("read back %+v, want %+v", got, r)
		}
	}
}

// TestParseRefusesNonsense: a request the app would never send is an error,
// not a guess.
func TestParseRefusesNonsense(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"delete"},
		{"open", "-title"},
		{"open", "-colour", "red"},
		{"save", "-filter", "no extensions"},
	} {
		if _, err := Parse(args); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestAnswer: the path chosen is the output without its line end; a path
// may end in spaces or hold a newline of its own.
func TestAnswer(t *testing.T) {
	for out, want := range map[string]string{
		"":                      "",
		"/tmp/a.eventlog\n":     "/tmp/a.eventlog",
		"/tmp/ends in space \n": "/tmp/ends in space ",
		"/tmp/two\nlines\n":     "/tmp/two\nlines",
	} {
		if got := Answer([]byte(out)); got != want {
			t.Errorf("Answer(%q) = %q, want %q", out, got, want)
		}
	}
}
