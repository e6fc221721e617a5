package generated_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime/snapshot"
)

// TestSnapshotHelper checks the fixtures of testdata, as snapshots, with
// runtime/snapshot.Test and the generated code: docs/snapshots.md's go test
// set-up. The messages prompts' fixtures are JSON message lists, which
// snapshot.Test does not render, so the test checks a copy without them.
func TestSnapshotHelper(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata")); err != nil {
		t.Fatal(err)
	}
	for key := range messagesPrompts {
		if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(key))); err != nil {
			t.Fatal(err)
		}
	}
	snapshot.Test(t, dir,
		snapshot.Of(generated.DraftReply),
		snapshot.Of(generated.SummarizeCustomerInteraction),
		snapshot.Of(generated.TriageTicket),
		snapshot.Of(generated.NextAction),
		snapshot.Of(generated.Weather),
		snapshot.Of(generated.PlanSteps),
		snapshot.Of(generated.TicketDigest),
		snapshot.Of(generated.Chatml),
		snapshot.Of(generated.ExtractEntities),
		snapshot.Of(generated.Think),
		snapshot.Set("agent", generated.NewAgent),
		snapshot.Set("chat_formats", generated.NewChatFormats),
		snapshot.Fragment("fragments/tool_instructions", generated.ToolInstructionsFragment),
	)
}
