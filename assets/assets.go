// Package assets holds hecscope's icon and the files that integrate it with
// a Linux desktop: the desktop entry, the shared-mime-info package that
// names GHC eventlogs, and the program that draws the icon (drawicon.go;
// regenerate with go generate).
package assets

import _ "embed"

//go:generate go run drawicon.go

// IconPNG is the 256×256 application icon, PNG encoded.
//
//go:embed hecscope.png
var IconPNG []byte
