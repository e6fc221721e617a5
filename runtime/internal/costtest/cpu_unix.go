//go:build unix

package costtest

import (
	"syscall"
	"time"
)

// now returns the CPU time the process has used, which other processes on
// the machine do not inflate.
func now() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		panic("costtest: getrusage failed")
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
