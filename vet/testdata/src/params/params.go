// Package params overrides model parameters per call.
package params

import (
	"example.com/app/pg"
	"github.com/promptgen/promptgen/runtime"
)

func good(f pg.TicketFeed, name string, t float64) {
	pg.Ticket.Request(f, runtime.Temperature(0.2), runtime.TopP(1), runtime.MaxTokens(300), runtime.Stop("###"))
	runtime.WithParameter("max_tokens", 300.0) // an integral float is an integer
	runtime.WithParameter("stop", "###")
	runtime.WithParameter("stop_sequences", []string{"a"})
	runtime.WithParameter("temperature", nil) // removes the parameter
	runtime.WithParameter("seed", -7)
	runtime.WithParameter(name, 3)    // names known at run time only
	runtime.WithParameter("top_k", t) // values too
	runtime.Temperature(t)
}

func bad() {
	runtime.WithParameter("temprature", 0.2)    // want `unknown model parameter "temprature" \(did you mean "temperature"\?\)`
	runtime.WithParameter("reasoning", 1)       // want `unknown model parameter "reasoning" \(known: "frequency_penalty", .*, "verbosity"\)`
	runtime.WithParameter("temperature", 3)     // want `parameter "temperature" must be a number from 0 to 2, not 3`
	runtime.WithParameter("max_tokens", 2.5)    // want `parameter "max_tokens" must be an integer of at least 0, not 2.5`
	runtime.WithParameter("max_tokens", -1)     // want `parameter "max_tokens" must be an integer of at least 0, not -1`
	runtime.WithParameter("stop", 1)            // want `parameter "stop" must be a string or a list of strings, not 1`
	runtime.WithParameter("temperature", "hot") // want `parameter "temperature" must be a number from 0 to 2, not "hot"`
	runtime.WithParameter("seed", true)         // want `parameter "seed" must be an integer, not true`
	runtime.Temperature(2.5)                    // want `parameter "temperature" must be a number from 0 to 2, not 2.5`
	runtime.TopP(-0.1)                          // want `parameter "top_p" must be a number from 0 to 1, not -0.1`
	runtime.MaxTokens(-3)                       // want `parameter "max_tokens" must be an integer of at least 0, not -3`
	const hot = 9
	runtime.Temperature(hot) // want `parameter "temperature" must be a number from 0 to 2, not 9`
}
