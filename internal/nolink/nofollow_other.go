//go:build !unix

package nolink

// noFollow is 0 where open has no O_NOFOLLOW: the check before the open
// refuses links.
const noFollow = 0
