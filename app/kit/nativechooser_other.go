//go:build !linux

package kit

import (
	"errors"
	"fmt"

	native "github.com/sqweek/dialog"

	"github.com/hecscope/hecscope/internal/chooser"
)

// chooseNative shows the system's chooser in this process: on macOS and
// Windows the library starts nothing until a chooser is shown.
func chooseNative(req chooser.Request) (path string, err error) {
	defer func() {
		if r := recover(); r != nil {
			path, err = "", fmt.Errorf("%w: %v", errNoNativeDialog, r)
		}
	}()
	b := native.File().Title(req.Title)
	for _, f := range req.Filters {
		b = b.Filter(f.Desc, f.Extensions...)
	}
	if req.StartDir != "" {
		b = b.SetStartDir(req.StartDir)
	}
	if req.Save {
		path, err = b.SetStartFile(req.StartFile).Save()
	} else {
		path, err = b.Load()
	}
	if errors.Is(err, native.ErrCancelled) {
		return "", nil
	}
	return path, err
}
