//go:build unix

package nolink

import "syscall"

// noFollow makes an open of a symbolic link fail.
const noFollow = syscall.O_NOFOLLOW
