//go:build !unix

package costtest

import "time"

var start = time.Now()

// now returns the time since the test started.
func now() time.Duration { return time.Since(start) }
