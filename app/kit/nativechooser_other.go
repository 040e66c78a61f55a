//go:build !linux

package kit

import (
	"errors"
	"fmt"

	"github.com/hecscope/hecscope/internal/chooser"
	"github.com/hecscope/hecscope/internal/chooser/syschooser"
)

// chooseNative shows the system's chooser in this process: on macOS and
// Windows the library starts nothing until a chooser is shown.
func chooseNative(req chooser.Request) (string, error) {
	path, err := syschooser.Show(req)
	if errors.Is(err, syschooser.ErrUnavailable) {
		return "", fmt.Errorf("%w: %v", errNoNativeDialog, err)
	}
	return path, err
}
