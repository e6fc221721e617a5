// Command promptgen-vet runs promptgen's analyzer (package vet) under
// go vet:
//
//	go vet -vettool=$(which promptgen-vet) ./...
//
// go vet drives it one package at a time, with its dependencies' export
// data; for a standalone run, use promptgen vet.
package main

import (
	"github.com/promptgen/promptgen/vet"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() { unitchecker.Main(vet.Analyzer) }
