// Package plainlocale keeps Fyne from logging "Error parsing user locale C"
// on every start under the C.UTF-8 (or POSIX.*) locale of containers and CI
// machines.
//
// Fyne asks github.com/jeandeaual/go-locale for the user's language; for a
// locale such as C.UTF-8 that returns "C", which is no language tag, and Fyne
// logs an error from its own package initialisation and again later. go-locale
// consults LANGUAGE when the locale is not exactly C or POSIX, so setting
// LANGUAGE=en in that case gives Fyne English, which is what the C locale
// means, and changes nothing else: gettext ignores LANGUAGE under a C locale.
//
// It must be initialised before Fyne's lang package. Go initialises packages
// in import-path order among those whose imports are ready; this package
// imports only os and strings, and its path sorts before golang.org/x/text,
// which Fyne's lang package waits for. cmd/hecscope-gui imports it for that
// effect alone.
package plainlocale

import (
	"os"
	"strings"
)

func init() {
	if os.Getenv("LANGUAGE") != "" {
		return
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		if strings.HasPrefix(v, "C.") || strings.HasPrefix(v, "POSIX.") {
			os.Setenv("LANGUAGE", "en")
		}
		return
	}
}
