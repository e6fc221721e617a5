package runtime

import (
	"slices"
	"sync"
)

// AnchorState tracks an agent's last action and last anchor action, for
// state-driven template switching (template-manager.md §3.1): the last
// anchor action type is the key of the next prompt, so only anchor actions
// (such as BrowseLink or Search) change the template, and intermediate
// actions do not. The zero value has seen no action: its key is "", which
// a set resolves to its default template (the spec's None key).
//
// The spec keeps this state per agent, without locking; an AnchorState is
// nevertheless safe for concurrent use (an agent's actions may run on
// another goroutine than its prompt construction), so it must not be
// copied after first use.
type AnchorState struct {
	mu         sync.Mutex
	lastAction string
	lastAnchor string
}

// SetLastAction records an executed action of type actionType. When
// actionType is one of anchorTypes, it also becomes the last anchor action
// type; with no anchorTypes no action is an anchor (the spec's
// set_last_action(action, anchor_actions_types=None)).
func (s *AnchorState) SetLastAction(actionType string, anchorTypes ...string) {
	anchor := slices.Contains(anchorTypes, actionType)
	s.mu.Lock()
	if anchor {
		s.lastAnchor = actionType
	}
	s.lastAction = actionType
	s.mu.Unlock()
}

// LastActionType returns the type of the last action recorded, anchor or
// not; "" before the first.
func (s *AnchorState) LastActionType() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastAction
}

// LastAnchorActionType returns the type of the last anchor action: the
// template key of the next prompt; "" before the first.
func (s *AnchorState) LastAnchorActionType() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastAnchor
}
