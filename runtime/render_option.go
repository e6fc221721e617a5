package runtime

import "time"

// RenderOption changes one render of a prompt whose template reads the
// clock (strftime_now of the transformers profile): the Render and
// AppendRender of such a prompt take them.
type RenderOption func(*renderConfig)

type renderConfig struct {
	now    time.Time
	nowSet bool
}

// WithNow makes strftime_now format t instead of the current time, so that
// a render is reproducible. It formats t in t's location.
func WithNow(t time.Time) RenderOption {
	return func(c *renderConfig) { c.now, c.nowSet = t, true }
}

// RenderNow is the time that strftime_now formats in a render with opts:
// the last WithNow's, or the current local time, as Python's
// datetime.now().
func RenderNow(opts []RenderOption) time.Time {
	var c renderConfig
	for _, o := range opts {
		o(&c)
	}
	if !c.nowSet {
		return time.Now()
	}
	return c.now
}
